import { z } from "zod";

const FILTER_MAX = 80;

/** Alpha-2 ("IN") or alpha-3 ("IND"), any case. */
export const CountryCodeSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{2,3}$/, "an ISO 3166-1 alpha-2 or alpha-3 code, such as IN or IND");

export const ListCountriesQuerySchema = z.object({
  name: z
    .string()
    .trim()
    .max(FILTER_MAX, `at most ${FILTER_MAX} characters`)
    .optional()
    .describe('the start of a word of the common name ("kingdom", "aland"); case and accents ignored'),
  code: z
    .string()
    .trim()
    .regex(/^(?:[A-Za-z]{2,3})?$/, "an ISO 3166-1 alpha-2 or alpha-3 code, such as IN or IND")
    .optional()
    .describe("an exact alpha-2 or alpha-3 code"),
  region: z
    .string()
    .trim()
    .max(FILTER_MAX, `at most ${FILTER_MAX} characters`)
    .optional()
    .describe('Africa, Americas, Antarctic, Asia, Europe, Oceania, or a subregion such as "Southern Asia"'),
  callingCode: z
    .string()
    .trim()
    .max(20, "at most 20 characters")
    .regex(/^(?:\+?\d[\d\s-]*)?$/, "digits with an optional + and - or spaces, such as +1-684")
    .optional()
    .describe('"+91", "44", "+1-684" or a dial prefix such as "1 201"'),
  currency: z
    .string()
    .trim()
    .max(FILTER_MAX, `at most ${FILTER_MAX} characters`)
    .optional()
    .describe('an ISO 4217 code ("EUR") or a currency\'s English name ("euro"), whole; case ignored'),
  language: z
    .string()
    .trim()
    .max(FILTER_MAX, `at most ${FILTER_MAX} characters`)
    .optional()
    .describe('an ISO 639-3 code ("deu") or a language\'s English name ("German"), whole; case and accents ignored'),
  capital: z
    .string()
    .trim()
    .max(FILTER_MAX, `at most ${FILTER_MAX} characters`)
    .optional()
    .describe('a capital\'s name, whole ("new delhi", "bogota"); case and accents ignored'),
  subregion: z
    .string()
    .trim()
    .max(FILTER_MAX, `at most ${FILTER_MAX} characters`)
    .optional()
    .describe('a subregion, whole ("Southern Asia", "Caribbean"); case and accents ignored'),
  demonym: z
    .string()
    .trim()
    .max(FILTER_MAX, `at most ${FILTER_MAX} characters`)
    .optional()
    .describe(
      'what the people are called, whole, in any language the record has ("Peruvian", "allemande"); case and accents ignored',
    ),
  translation: z
    .string()
    .trim()
    .max(FILTER_MAX, `at most ${FILTER_MAX} characters`)
    .optional()
    .describe(
      'the start of a word of the name in any language of `translations` ("alemania", "deutschland"); case and accents ignored',
    ),
  independent: z
    .enum(["true", "false"], { message: "true or false" })
    .optional()
    .transform((value) => (value === undefined ? undefined : value === "true"))
    .describe("true for sovereign states, false for the others; Kosovo, left open by the dataset, is in neither"),
  fields: z
    .string()
    .trim()
    .max(400, "at most 400 characters")
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === "") return undefined;
      const names = [...new Set(value.split(",").map((name) => name.trim()))].filter((name) => name !== "");
      const unknown = names.filter((name) => !COUNTRY_FIELDS.has(name));
      if (unknown.length > 0) {
        ctx.addIssue({
          code: "custom",
          message: `unknown field${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")}; the fields are ${[...COUNTRY_FIELDS].join(", ")}`,
        });
        return z.NEVER;
      }
      return names;
    })
    .describe(
      'the record\'s fields to answer, comma-separated ("name,capital,cca2"); the others are left out. Unknown names are refused with 422',
    ),
});

export type ListCountriesQuery = z.infer<typeof ListCountriesQuerySchema>;

export const CountryStatesInputSchema = z.object({
  code: CountryCodeSchema.describe("the country's alpha-2 or alpha-3 code, any case"),
});

export type CountryStatesInput = z.infer<typeof CountryStatesInputSchema>;

/**
 * Keeps one answer near 60 KB of JSON. The largest state, England, has 2,919 cities; past the
 * first thousand by name they are reached with `q`.
 */
export const CITIES_LIMIT_MAX = 1000;

export const StateCitiesInputSchema = z.object({
  code: CountryCodeSchema.describe("the country's alpha-2 or alpha-3 code, any case"),
  state: z
    .string()
    .trim()
    // The dataset's codes: letters and digits, two joined by a hyphen at most ("SH-AC"), 5 long at most.
    .regex(/^[A-Za-z0-9]{1,6}(?:-[A-Za-z0-9]{1,6})?$/, "a state code as the states call lists it, such as KA")
    .describe('the state\'s code as `GET /countries/:code/states` lists it ("KA" for Karnataka), any case'),
  q: z
    .string()
    .trim()
    .max(FILTER_MAX, `at most ${FILTER_MAX} characters`)
    .optional()
    .describe('the start of the city\'s name ("beng"); case and accents ignored'),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(CITIES_LIMIT_MAX)
    .default(500)
    .describe(`how many cities to answer, 1 to ${CITIES_LIMIT_MAX}; the first by name`),
});

export type StateCitiesInput = z.infer<typeof StateCitiesInputSchema>;

/** /me reads nothing from the caller but the request itself. */
export const MyLocationInputSchema = z.object({});

export type MyLocationInput = z.infer<typeof MyLocationInputSchema>;

/** "UTC+05:30", "UTC-03:00", or "UTC±00" for zero. */
const OffsetSchema = z.string().regex(/^UTC(?:±00|[+-]\d{2}:\d{2})$/);

/**
 * One IANA zone, from the runtime's time-zone database. Standard is the smaller of the zone's
 * offsets on 1 January and 1 July of the current year (see time-zones.ts for the rule's edges).
 */
export const TimezoneSchema = z.object({
  zone: z.string().describe('the IANA zone name ("Australia/Sydney")'),
  utcOffset: OffsetSchema.describe(
    'the standard (non-daylight) offset from UTC, such as "UTC+10:00" for Australia/Sydney all year round; "UTC±00" for zero',
  ),
  abbreviation: z
    .string()
    .describe(
      'the standard time\'s abbreviation in English as used in the country ("AEST", "IST"), or its offset ("GMT+3") where none is in common use',
    ),
  name: z.string().describe('the standard time\'s English name, whole ("Australian Eastern Standard Time")'),
  currentOffset: OffsetSchema.describe("the offset from UTC in force now, daylight saving included"),
  currentAbbreviation: z.string().describe("the abbreviation in force now, as `abbreviation`"),
  currentName: z.string().describe('the English name of the time in force now ("Australian Eastern Daylight Time")'),
  dst: z.boolean().describe("true when the zone is on daylight saving now: `currentOffset` differs from `utcOffset`"),
});

export type Timezone = z.infer<typeof TimezoneSchema>;

export const CountryRecordSchema = z.object({
  name: z.object({
    common: z.string(),
    official: z.string(),
    nativeName: z
      .record(z.string(), z.object({ common: z.string(), official: z.string() }))
      .describe("the name in each official language, by ISO 639-3 code"),
  }),
  cca2: z.string().length(2),
  cca3: z.string().length(3),
  capital: z.array(z.string()),
  region: z.string(),
  subregion: z.string(),
  currencies: z.array(z.object({ code: z.string(), name: z.string(), symbol: z.string() })),
  /** ISO 639-3 codes with English names. */
  languages: z.array(z.object({ code: z.string(), name: z.string() })),
  callingCode: z.string().nullable(),
  timezones: z.array(TimezoneSchema),
  latlng: z.tuple([z.number(), z.number()]),
  flag: z.string().describe("the flag as an emoji (two regional-indicator letters)"),
  flags: z
    .object({
      svg: z.string().describe("flag-icons' 4x3 SVG (MIT), on this site's origin"),
      png: z.string().describe("a 320 by 240 PNG rendered from that SVG, on this site's origin"),
      alt: z.string().describe('a short text alternative ("The flag of India")'),
    })
    .describe("flag images served as static files, as REST Countries' `flags`"),
  ccn3: z
    .string()
    .regex(/^\d{3}$/)
    .nullable()
    .describe('ISO 3166-1 numeric ("356"); null for Kosovo, which has none'),
  tld: z.array(z.string()).describe('country-code top-level domains (".in"); empty where none is delegated'),
  borders: z.array(z.string().length(3)).describe("alpha-3 codes of the countries sharing a land border"),
  demonyms: z
    .record(z.string(), z.object({ f: z.string(), m: z.string() }))
    .describe(
      'the people\'s name by ISO 639-3 language, feminine and masculine: { "eng": { "f": "Indian", "m": "Indian" } }',
    ),
  altSpellings: z.array(z.string()).describe("other names and spellings, native ones included"),
  translations: z
    .record(z.string(), z.object({ common: z.string(), official: z.string() }))
    .describe("the common and official name in other languages, by ISO 639-3 code"),
  unMember: z.boolean().describe("a member state of the United Nations"),
  independent: z
    .boolean()
    .nullable()
    .describe("a sovereign state; null for Kosovo, whose status the dataset leaves open"),
  landlocked: z.boolean(),
  area: z.number().nullable().describe("land area in square kilometres; null where the dataset has none"),
  population: z
    .number()
    .int()
    .nullable()
    .describe(
      "CLDR 48's figure, the CIA World Factbook's estimate (mid-2024 for most) rounded; uninhabited territories carry CLDR's token figures (1 for Bouvet Island)",
    ),
  continents: z
    .array(z.string())
    .describe(
      "Africa, Antarctica, Asia, Europe, North America, Oceania or South America, from CLDR's UN M49 containment: one each",
    ),
});

export type CountryRecord = z.infer<typeof CountryRecordSchema>;

/** The top-level names `fields` may list. */
export const COUNTRY_FIELDS: ReadonlySet<string> = new Set(Object.keys(CountryRecordSchema.shape));

/** Every field is present unless `fields` asked for fewer. */
export const CountriesSchema = z.object({ data: z.array(CountryRecordSchema.partial()) });

export const StateSchema = z.object({
  /** The subdivision part of the ISO 3166-2 code ("KA" of IN-KA), as the dataset has it. */
  code: z.string(),
  name: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
});

export const CountryStatesSchema = z.object({
  country: z.object({ name: z.string(), cca2: z.string(), cca3: z.string() }),
  data: z.array(StateSchema),
});

export type CountryStates = z.infer<typeof CountryStatesSchema>;

export const CitySchema = z.object({
  name: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
});

export type City = z.infer<typeof CitySchema>;

export const StateCitiesSchema = z.object({
  country: CountryStatesSchema.shape.country,
  state: z.object({ code: z.string(), name: z.string() }),
  data: z.array(CitySchema),
});

export type StateCities = z.infer<typeof StateCitiesSchema>;

export const MyLocationSchema = z.object({
  /** "cloudflare" when the edge supplied the location; "unknown" when it did not (local development). */
  source: z.enum(["cloudflare", "unknown"]),
  /** ISO alpha-2; "T1" is Cloudflare's code for Tor. */
  country: z.string().nullable(),
  countryName: z.string().nullable(),
  region: z.string().nullable(),
  regionCode: z.string().nullable(),
  city: z.string().nullable(),
  postalCode: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  timezone: z.string().nullable(),
  continent: z.string().nullable(),
});

export type MyLocation = z.infer<typeof MyLocationSchema>;
