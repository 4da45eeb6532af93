/**
 * Currency Converter: the European Central Bank's euro reference rates, Frankfurter v1's calls
 * and answers (`/latest`, `/YYYY-MM-DD`, `/START..END`, `/currencies`) so a client written for
 * Frankfurter works by changing its base URL and sending an API key, and a POST that converts
 * one amount. The rates
 * come from the ECB's feed through workers/providers/ecb (decision 049).
 */
import { defineOperation, type HostedApiDefinition } from "../definition";
import { handleConvert, handleCurrencies, handleDated, handleLatest, RANGE_DAYS_MAX } from "./handler";
import {
  ConversionSchema,
  ConvertInputSchema,
  CurrenciesQuerySchema,
  CurrenciesSchema,
  DatedQuerySchema,
  DatedSchema,
  LatestQuerySchema,
  RatesSchema,
} from "./schema";

const COMPARED =
  "Compared with [Frankfurter](https://frankfurter.dev) (v1), whose calls these are: the same ECB rates, paths, parameters and answer fields, so a Frankfurter client works by changing the base URL and sending your key in `x-api-key` (Frankfurter needs no key). " +
  "A weekend or TARGET holiday answers the business day before and says which in `date`, as Frankfurter does; a range lists only the ECB's business days and starts at the first one inside it (Frankfurter starts a range that begins on a weekend at the Friday before). " +
  "Cross rates go through the euro in full precision and are rounded once, at the output, to at least Frankfurter's decimals and at least seven significant digits, so every ECB quote comes back as published: Frankfurter's rule alone prints the ECB's 91.7985 rupees to the euro as 91.8 and 17165.59 rupiah as 17166, and one rupiah in euros as 0.00006 (here 0.00005825608). " +
  "A currency the ECB stopped publishing (the kuna after 2022-12-30) answers up to its last day and then a 422 naming that day, where Frankfurter silently leaves it out; an unknown code is a 422 naming the field. " +
  'Every answer carries `source: "ECB"` and `stale`, true with `ageBusinessDays` when the daily fetch has failed for more than one business day; Frankfurter does not say when its data is behind. ' +
  "Errors are RFC 9457 problems rather than `{message}`. Frankfurter has no key or quota; this API is on every plan (freemium: the Free plan may spend 50 of its monthly calls here).";

const FRESHNESS =
  "`stale` is true, with `ageBusinessDays`, when the newest stored day is more than one business day behind the ECB's calendar.";

export const definition: HostedApiDefinition = {
  slug: "currency-converter",
  operations: [
    defineOperation({
      id: "getLatestRates",
      method: "GET",
      path: "/latest",
      summary: "The newest ECB rates, as Frankfurter's /latest",
      description:
        "The newest day the ECB published (about 16:00 CET on TARGET business days), `amount` of `from` in every other currency or in those of `to`. " +
        "Codes are ISO 4217 in any case. " +
        FRESHNESS,
      inputSource: "query",
      input: LatestQuerySchema,
      output: {
        kind: "json",
        schema: RatesSchema,
        // As answered on 2024-10-10 (the ECB's rates of that day).
        example: {
          amount: 1,
          base: "EUR",
          date: "2024-10-10",
          rates: { GBP: 0.83686, JPY: 162.85, USD: 1.0932 },
          source: "ECB",
          stale: false,
        },
      },
      example: { from: "EUR", to: "USD,GBP,JPY" },
      errors: [
        {
          type: "invalid-input",
          when: "a code is not one the ECB publishes, or is no longer published on the newest day",
        },
        { type: "upstream-failed", when: "nothing is stored yet and the ECB's feed failed" },
      ],
      handler: handleLatest,
    }),
    defineOperation({
      id: "listCurrencies",
      method: "GET",
      path: "/currencies",
      summary: "The currencies the ECB publishes, as Frankfurter's /currencies",
      description:
        "Code to English name, for the euro and every currency on the newest day; `all=true` adds those the ECB published once and no longer does (with their last day in a 422 when you ask for them after it).",
      inputSource: "query",
      input: CurrenciesQuerySchema,
      output: {
        kind: "json",
        schema: CurrenciesSchema,
        example: { AUD: "Australian Dollar", EUR: "Euro", GBP: "British Pound", USD: "US Dollar" },
      },
      example: {},
      handler: handleCurrencies,
    }),
    defineOperation({
      id: "getRatesOn",
      method: "GET",
      path: "/:date",
      summary: "Rates on a day, or over a range (YYYY-MM-DD..YYYY-MM-DD)",
      description:
        "`/2024-10-10` answers that day's rates; a weekend or TARGET holiday answers the business day before, and `date` says which. " +
        "`/2024-10-01..2024-10-31` answers `start_date`, `end_date` and `rates` by day, with only the business days inside the range; `/2024-10-01..` runs to the newest day. " +
        "In a range, a currency the ECB stopped publishing is answered on its days up to its last and left out of the days after its last, with no error, as Frankfurter does; only a range in which nothing asked was published is a 422, naming the currency's last day. " +
        `A range covers at most ${RANGE_DAYS_MAX} days (ten years). Rates begin on 1999-01-04; a date after tomorrow (UTC) is refused. ` +
        "The rates are the ECB's own, every business day since 1999-01-04, read from its feed; the Worker also ships the ECB's newest 90 business days as of its eurofxref-hist file of 2026-04-13 (2025-12-02 to 2026-04-13), which answer until a new deployment's first fetch. " +
        FRESHNESS,
      inputSource: "query",
      input: DatedQuerySchema,
      output: {
        kind: "json",
        schema: DatedSchema,
        example: {
          amount: 100,
          base: "USD",
          date: "2024-10-10",
          rates: { EUR: 91.47457, GBP: 76.55141, JPY: 14896.63 },
          source: "ECB",
          stale: false,
        },
      },
      example: { date: "2024-10-10", from: "USD", to: "EUR,GBP,JPY", amount: 100 },
      errors: [
        {
          type: "invalid-input",
          when: "the date or range is malformed, before 1999-01-04 or in the future; a code is unknown or not published on that day",
        },
        {
          type: "not-found",
          when: "no rates are stored for the day or the range (a range of only weekends and holidays)",
        },
        { type: "upstream-failed", when: "nothing is stored yet and the ECB's feed failed" },
      ],
      handler: handleDated,
    }),
    defineOperation({
      id: "convertCurrency",
      method: "POST",
      path: "",
      summary: "Convert an amount into one or more currencies, today or on a date",
      description:
        "`amount` of `from` in each currency of `to`, at the ECB's rates of `date` (the newest when absent; a weekend or holiday uses the business day before, and `requestedDate` shows the day asked). " +
        "Each conversion gives the cross rate and the converted amount, both rounded only at the output. " +
        FRESHNESS +
        " " +
        COMPARED,
      inputSource: "json",
      input: ConvertInputSchema,
      output: {
        kind: "json",
        schema: ConversionSchema,
        example: {
          from: "USD",
          amount: 250,
          date: "2024-10-10",
          conversions: [
            { to: "EUR", rate: 0.9147457, amount: 228.6864 },
            { to: "INR", rate: 83.97228, amount: 20993.07 },
          ],
          source: "ECB",
          stale: false,
        },
      },
      // Without a date the newest day answers; the output shown is the answer of 2024-10-10.
      example: { from: "USD", to: ["EUR", "INR"], amount: 250 },
      errors: [
        {
          type: "invalid-input",
          when: "a code is unknown, or not published on that day (a discontinued currency after its last day); the date is malformed, before 1999-01-04 or in the future",
        },
        { type: "not-found", when: "no rates are stored for that day or before it" },
        { type: "upstream-failed", when: "nothing is stored yet and the ECB's feed failed" },
      ],
      handler: handleConvert,
    }),
  ],
};
