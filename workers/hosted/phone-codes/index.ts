/**
 * Country Phone Codes: every country's international calling code with its name, ISO code and
 * flag, from the shared world-countries list (`../_data/countries.ts`).
 */
import { defineOperation, type HostedApiDefinition } from "../definition";
import { handlePhoneCodes } from "./handler";
import { PhoneCodesQuerySchema, PhoneCodesSchema } from "./schema";

export const definition: HostedApiDefinition = {
  slug: "phone-codes",
  operations: [
    defineOperation({
      id: "listPhoneCodes",
      method: "GET",
      path: "",
      summary: "Calling codes of every country, or of the ones you filter",
      description:
        "`country` keeps countries with a word of the common name starting with it, or whose alpha-2 or alpha-3 code is exactly it (case and accents ignored: `ind` gives British Indian Ocean Territory, India and Indonesia; `us` the United States). " +
        "`q` does the same, or, when it is a number such as `+44` or `1-684`, keeps the countries with that calling code; both filters together must both match. " +
        "`callingCode` is written the usual way: `+44`, `+1-684` for a territory inside another country code, and just the country code where a country has many area codes (`+1` for the United States and Canada, `+7` for Russia). " +
        "Sorted by name; the two territories without a calling code (Antarctica, Heard Island and McDonald Islands) are left out. Data: world-countries (ODbL).",
      inputSource: "query",
      input: PhoneCodesQuerySchema,
      output: {
        kind: "json",
        schema: PhoneCodesSchema,
        example: {
          data: [
            { name: "British Indian Ocean Territory", code: "IO", callingCode: "+246", flag: "🇮🇴" },
            { name: "India", code: "IN", callingCode: "+91", flag: "🇮🇳" },
            { name: "Indonesia", code: "ID", callingCode: "+62", flag: "🇮🇩" },
          ],
        },
      },
      example: { country: "ind" },
      handler: handlePhoneCodes,
    }),
  ],
  legacyRoutes: [
    // Older clients call this path with the same query; nothing needs renaming.
    { method: "GET", path: "/api/country/phone-codes", operationId: "listPhoneCodes", adapt: (raw) => raw },
  ],
};
