import { findCountries, findCountryByCode, foldText, type CountryFacts } from "../_data/countries";
import { json, problemResult, type HandlerResult, type OperationContext } from "../definition";
import { locateCaller } from "./caller-location";
import { COUNTRIES_WITHOUT_CITY_DATA } from "./cities";
import type {
  City,
  CountryRecord,
  CountryStatesInput,
  ListCountriesQuery,
  MyLocationInput,
  StateCities,
  StateCitiesInput,
} from "./schema";
import { findState, statesOf, timezonesOf } from "./subdivisions";

/** The order the states call uses (`localeCompare(…, "en")`), kept as one collator for speed. */
const byName = new Intl.Collator("en");

/**
 * The flag images the build copies to the static assets (scripts/build-flags.ts), served by
 * Cloudflare without running the Worker: flag-icons' 4x3 SVG and a 320 px PNG rendered from it,
 * on the origin the request came to (docs/decisions/045-country-facts-from-cldr-and-flag-assets.md).
 */
function flagsOf(country: CountryFacts, origin: string): CountryRecord["flags"] {
  const code = country.cca2.toLowerCase();
  return {
    svg: `${origin}/flags/svg/${code}.svg`,
    png: `${origin}/flags/w320/${code}.png`,
    alt: `The flag of ${country.name.common}`,
  };
}

/** Everything but the time zones, which are computed per request and only when asked for. */
function withoutTimezones(country: CountryFacts, origin: string): Omit<CountryRecord, "timezones"> {
  return { ...country, flags: flagsOf(country, origin) };
}

async function toRecord(country: CountryFacts, now: Date, origin: string): Promise<CountryRecord> {
  return { ...withoutTimezones(country, origin), timezones: await timezonesOf(country.cca2, now) };
}

/**
 * The record cut to the requested fields. Time zones are only described when asked for: they
 * are the one field computed per request, from the runtime's tz database.
 */
async function toTrimmedRecord(
  country: CountryFacts,
  now: Date,
  origin: string,
  fields: readonly string[],
): Promise<Partial<CountryRecord>> {
  const source: Record<string, unknown> = fields.includes("timezones")
    ? await toRecord(country, now, origin)
    : withoutTimezones(country, origin);
  return Object.fromEntries(fields.map((field) => [field, source[field]])) as Partial<CountryRecord>;
}

export async function handleListCountries(input: ListCountriesQuery, ctx: OperationContext): Promise<HandlerResult> {
  const countries = await findCountries({
    name: input.name,
    code: input.code,
    region: input.region,
    callingCode: input.callingCode,
    currency: input.currency,
    language: input.language,
    capital: input.capital,
    subregion: input.subregion,
    demonym: input.demonym,
    translation: input.translation,
    independent: input.independent,
  });
  const now = new Date();
  const fields = input.fields;
  return json({
    data: await Promise.all(
      countries.map((country) =>
        fields ? toTrimmedRecord(country, now, ctx.origin, fields) : toRecord(country, now, ctx.origin),
      ),
    ),
  });
}

export async function handleCountryStates(input: CountryStatesInput, _ctx: OperationContext): Promise<HandlerResult> {
  const country = await findCountryByCode(input.code);
  if (!country) return problemResult("not-found", `No country has the code ${input.code.toUpperCase()}.`);
  return json({
    country: { name: country.name.common, cca2: country.cca2, cca3: country.cca3 },
    data: await statesOf(country.cca2),
  });
}

export async function handleStateCities(input: StateCitiesInput, ctx: OperationContext): Promise<HandlerResult> {
  const country = await findCountryByCode(input.code);
  if (!country) return problemResult("not-found", `No country has the code ${input.code.toUpperCase()}.`);
  const state = await findState(country.cca2, input.state);
  if (!state) {
    return problemResult(
      "not-found",
      `${country.name.common} has no state with the code ${input.state.toUpperCase()}: GET /countries/${country.cca2}/states lists them.`,
    );
  }
  const cities = await ctx.cities.listStateCities(country.cca2, state.code);
  // An empty state is only an answer once the country's cities are known to be loaded;
  // otherwise an unseeded database would pass off "no data" as "no cities".
  if (
    cities.length === 0 &&
    !COUNTRIES_WITHOUT_CITY_DATA.has(country.cca2) &&
    !(await ctx.cities.hasCountryCities(country.cca2))
  ) {
    return problemResult(
      "engine-unavailable",
      "City data is not loaded here: run npm run seed:cities (npm run seed:cities -- --remote --env production for the deployed database).",
    );
  }
  const prefix = foldText(input.q ?? "");
  const data: City[] = cities
    .filter((city) => prefix === "" || foldText(city.name).startsWith(prefix))
    // Canonically equivalent spellings collate equal; code-point order then keeps the answer stable.
    .sort((a, b) => byName.compare(a.name, b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .slice(0, input.limit);
  const body: StateCities = {
    country: { name: country.name.common, cca2: country.cca2, cca3: country.cca3 },
    state: { code: state.code, name: state.name },
    data,
  };
  return json(body);
}

export async function handleMyLocation(_input: MyLocationInput, ctx: OperationContext): Promise<HandlerResult> {
  return json(await locateCaller(ctx.request));
}
