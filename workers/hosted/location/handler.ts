import { findCountries, findCountryByCode, type CountryFacts } from "../_data/countries";
import { json, problemResult, type HandlerResult, type OperationContext } from "../definition";
import { locateCaller } from "./caller-location";
import type { CountryRecord, CountryStatesInput, ListCountriesQuery, MyLocationInput } from "./schema";
import { statesOf, timezonesOf } from "./subdivisions";

async function toRecord(country: CountryFacts): Promise<CountryRecord> {
  return { ...country, timezones: await timezonesOf(country.cca2) };
}

export async function handleListCountries(input: ListCountriesQuery, _ctx: OperationContext): Promise<HandlerResult> {
  const countries = await findCountries({
    name: input.name,
    code: input.code,
    region: input.region,
    callingCode: input.callingCode,
  });
  return json({ data: await Promise.all(countries.map(toRecord)) });
}

export async function handleCountryStates(input: CountryStatesInput, _ctx: OperationContext): Promise<HandlerResult> {
  const country = await findCountryByCode(input.code);
  if (!country) return problemResult("not-found", `No country has the code ${input.code.toUpperCase()}.`);
  return json({
    country: { name: country.name.common, cca2: country.cca2, cca3: country.cca3 },
    data: await statesOf(country.cca2),
  });
}

export async function handleMyLocation(_input: MyLocationInput, ctx: OperationContext): Promise<HandlerResult> {
  return json(await locateCaller(ctx.request));
}
