/**
 * The rates capability's type, for this API's tests that import it from here: it is declared
 * with the other capabilities (../capabilities.ts) and implemented by the ECB provider
 * (workers/providers/ecb/exchange-rates.ts).
 */
export type { ExchangeRates } from "../capabilities";
