/**
 * Location: countries (world-countries, with currencies, population and continents from CLDR,
 * flags from flag-icons served as static files, and each country's zones listed by
 * country-state-city and described from the runtime's time-zone database), the states of a
 * country, the cities of a state, and the caller's own location from Cloudflare's edge. Cities
 * are read from D1, loaded by scripts/seed-cities.ts: their dataset does not fit in the Worker
 * (docs/decisions/011-cities-from-d1.md).
 */
import { defineOperation, type HostedApiDefinition } from "../definition";
import { handleCountryStates, handleListCountries, handleMyLocation, handleStateCities } from "./handler";
import {
  CITIES_LIMIT_MAX,
  CountriesSchema,
  CountryStatesInputSchema,
  CountryStatesSchema,
  ListCountriesQuerySchema,
  MyLocationInputSchema,
  MyLocationSchema,
  StateCitiesInputSchema,
  StateCitiesSchema,
} from "./schema";

export const definition: HostedApiDefinition = {
  slug: "location",
  operations: [
    defineOperation({
      id: "listCountries",
      method: "GET",
      path: "/countries",
      summary:
        "Countries, filtered by name, code, region, subregion, calling code, currency, language, capital, demonym, translated name or independence",
      description:
        'Every filter is optional and all given ones must match: `name` is the start of a word of the common name (case and accents ignored: `kingdom`, `aland`), `code` an exact alpha-2 or alpha-3 code, `region` a region (Africa, Americas, Antarctic, Asia, Europe, Oceania) or subregion ("Southern Asia"), `callingCode` a calling code (`+91`, `+1-684`) or dial prefix, ' +
        "`currency` an ISO 4217 code or English currency name (`EUR`, `euro`), `language` an ISO 639-3 code or English language name (`deu`, `German`), `capital` a capital's whole name (`bogota`), `subregion` a whole subregion (`Caribbean`), `demonym` what the people are called in any language the record has (`Peruvian`, `allemande`); these match whole names, case and accents ignored. " +
        "`translation` is the start of a word of the common or official name in any language of `translations` (`suiza`, `deutschland`), and `independent` is `true` or `false` (Kosovo, whose status the dataset leaves open, is in neither). " +
        "Each record has the common, official and native names (`name.nativeName`, by ISO 639-3 language), codes (alpha-2, alpha-3, ISO numeric `ccn3`), capitals, region, currencies, languages (ISO 639-3), calling code, time zones, a representative latitude/longitude, the flag emoji and flag images, continents, population, " +
        "top-level domains, land borders (alpha-3), demonyms and name translations by ISO 639-3 language, alternative spellings, UN membership, independence, whether landlocked, and area in km². Sorted by common name. " +
        "`fields` (`name,capital`) answers only the listed top-level fields; an unknown name is refused with 422 naming it. " +
        "Each time zone has its IANA name, its standard offset (`utcOffset`: the smaller of its offsets on 1 January and 1 July of the current year, so winter time in either hemisphere: UTC+10:00 for Australia/Sydney all year), abbreviation and long name, and the offset, abbreviation and name in force now with `dst` true while they differ from standard. " +
        "Currencies are those legal tender on the day of the request (UTC), from CLDR's currency data, which follows ISO 4217's amendments: Bulgaria has the euro from 2026-01-01, Curaçao and Sint Maarten the Caribbean guilder (XCG); the `currency` look-up uses the same answer. Names and symbols are world-countries'. " +
        "Offsets and names come from the runtime's time-zone database (IANA tzdata through ICU, kept current with the runtime), in English. " +
        "`flags` links the flag as an SVG (flag-icons' 4x3 files, MIT) and a 320 by 240 PNG rendered from it, both static files on this site, with a short alt text; `flag` is the emoji. " +
        "`population` is CLDR 48's figure, the CIA World Factbook's estimate (mid-2024 for most countries) rounded to about six significant figures; uninhabited territories keep CLDR's token figures (1 for Bouvet Island). `continents` names the continent (Africa, Antarctica, Asia, Europe, North America, Oceania, South America) over CLDR's UN M49 containment, one each: Russia is in Europe and Turkey in Asia, where REST Countries lists both. " +
        "Data: world-countries (ODbL, mledoze/countries), CLDR (Unicode licence) for currencies, population and continents, flag-icons (MIT, lipis/flag-icons) for flags, and country-state-city for which zones each country has.",
      inputSource: "query",
      input: ListCountriesQuerySchema,
      output: {
        kind: "json",
        schema: CountriesSchema,
        example: {
          data: [
            {
              name: {
                common: "Switzerland",
                official: "Swiss Confederation",
                nativeName: {
                  fra: { common: "Suisse", official: "Confédération suisse" },
                  gsw: { common: "Schweiz", official: "Schweizerische Eidgenossenschaft" },
                  ita: { common: "Svizzera", official: "Confederazione Svizzera" },
                  roh: { common: "Svizra", official: "Confederaziun svizra" },
                },
              },
              cca2: "CH",
              cca3: "CHE",
              ccn3: "756",
              capital: ["Bern"],
              continents: ["Europe"],
              population: 8860570,
              currencies: [{ code: "CHF", name: "Swiss franc", symbol: "Fr." }],
              languages: [
                { code: "fra", name: "French" },
                { code: "gsw", name: "Swiss German" },
                { code: "ita", name: "Italian" },
                { code: "roh", name: "Romansh" },
              ],
              demonyms: { eng: { f: "Swiss", m: "Swiss" }, fra: { f: "Suisse", m: "Suisse" } },
              flags: {
                svg: "https://portico.dev/flags/svg/ch.svg",
                png: "https://portico.dev/flags/w320/ch.png",
                alt: "The flag of Switzerland",
              },
              unMember: true,
              area: 41284,
            },
          ],
        },
      },
      example: {
        translation: "suiza",
        fields: "name,cca2,cca3,ccn3,capital,continents,population,currencies,languages,demonyms,flags,unMember,area",
      },
      handler: handleListCountries,
    }),
    defineOperation({
      id: "listCountryStates",
      errors: [{ type: "not-found", when: "No country has this code." }],
      method: "GET",
      path: "/countries/:code/states",
      summary: "The states, provinces or regions of a country",
      description:
        '`code` is the country\'s alpha-2 or alpha-3 code, any case. Each subdivision has its code as the dataset gives it (mostly the ISO 3166-2 suffix, "KA" for IN-KA), its name and a representative latitude/longitude (null where the dataset has none). Sorted by name; a country without subdivisions answers an empty list, an unknown code 404. ' +
        "Data: country-state-city.",
      inputSource: "query",
      input: CountryStatesInputSchema,
      output: {
        kind: "json",
        schema: CountryStatesSchema,
        example: {
          country: { name: "Australia", cca2: "AU", cca3: "AUS" },
          data: [
            { code: "ACT", name: "Australian Capital Territory", latitude: -35.4734679, longitude: 149.0123679 },
            { code: "NSW", name: "New South Wales", latitude: -31.2532183, longitude: 146.921099 },
            { code: "NT", name: "Northern Territory", latitude: -19.4914108, longitude: 132.5509603 },
            { code: "QLD", name: "Queensland", latitude: -20.9175738, longitude: 142.7027956 },
            { code: "SA", name: "South Australia", latitude: -30.0002315, longitude: 136.2091547 },
            { code: "TAS", name: "Tasmania", latitude: -41.4545196, longitude: 145.9706647 },
            { code: "VIC", name: "Victoria", latitude: -36.4856423, longitude: 140.9779425 },
            { code: "WA", name: "Western Australia", latitude: -27.6728168, longitude: 121.6283098 },
          ],
        },
      },
      example: { code: "AU" },
      handler: handleCountryStates,
    }),
    defineOperation({
      id: "listStateCities",
      errors: [{ type: "not-found", when: "No country has this code, or the country has no state with this code." }],
      method: "GET",
      path: "/countries/:code/states/:state/cities",
      summary: "The cities of a state",
      description:
        "`code` is the country's alpha-2 or alpha-3 code and `state` the state's code as `GET /countries/:code/states` lists it (\"KA\" for Karnataka), both in any case. " +
        `Each city has its name and a representative latitude/longitude. Sorted by name; \`q\` keeps the names that start with it (case and accents ignored: \`eb\` finds Ébolowa), and \`limit\` (1 to ${CITIES_LIMIT_MAX}, default 500) caps the list. ` +
        "An unknown country or state answers 404; a state the dataset lists without cities answers an empty list. " +
        "Data: country-state-city, 148,038 cities in 192 countries.",
      inputSource: "query",
      input: StateCitiesInputSchema,
      output: {
        kind: "json",
        schema: StateCitiesSchema,
        example: {
          country: { name: "India", cca2: "IN", cca3: "IND" },
          state: { code: "KA", name: "Karnataka" },
          data: [
            { name: "Belagavi", latitude: 16.33333, longitude: 74.75 },
            { name: "Belluru", latitude: 12.9814, longitude: 76.73308 },
            { name: "Beltangadi", latitude: 13.98333, longitude: 75.3 },
            { name: "Belur", latitude: 13.16558, longitude: 75.86519 },
            { name: "Bengaluru", latitude: 12.97194, longitude: 77.59369 },
          ],
        },
      },
      example: { code: "IN", state: "KA", q: "be" },
      handler: handleStateCities,
    }),
    defineOperation({
      id: "getMyLocation",
      method: "GET",
      path: "/me",
      summary: "Where the caller is, as Cloudflare's edge sees it",
      description:
        "Reads the location Cloudflare attaches to the request from the caller's IP address: country (alpha-2, with its name), region, city, postal code, latitude/longitude, IANA time zone and continent. " +
        "Fields Cloudflare does not know are null. Where there is no edge data at all (local development) every field is null and `source` is `unknown`; nothing is guessed. " +
        "A country of `T1` means the request came through Tor.",
      inputSource: "query",
      input: MyLocationInputSchema,
      output: {
        kind: "json",
        schema: MyLocationSchema,
        example: {
          source: "cloudflare",
          country: "IN",
          countryName: "India",
          region: "Karnataka",
          regionCode: "KA",
          city: "Bengaluru",
          postalCode: "560001",
          latitude: 12.9716,
          longitude: 77.5946,
          timezone: "Asia/Kolkata",
          continent: "AS",
        },
      },
      example: {},
      handler: handleMyLocation,
    }),
  ],
};
