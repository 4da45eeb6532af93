/**
 * States and time zones from country-state-city. Only its state and country modules are
 * imported (117 KB and 13 KB gzip); its city module would pull in an 8 MB dataset, which does
 * not fit in the Worker (docs/decisions/002-location-data.md).
 */
import { lazy } from "../_data/lazy";
import type { CountryRecord, CountryStates } from "./schema";

const loadStates = lazy(() => import("country-state-city/lib/state").then((module) => module.default));
const loadCountries = lazy(() => import("country-state-city/lib/country").then((module) => module.default));

/** The dataset keeps coordinates as strings ("15.31727750") and sometimes null. */
function coordinate(value: string | null | undefined): number | null {
  if (value === null || value === undefined || value.trim() === "") return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : null;
}

export async function statesOf(cca2: string): Promise<CountryStates["data"]> {
  const { getStatesOfCountry } = await loadStates();
  return getStatesOfCountry(cca2)
    .map((state) => ({
      code: state.isoCode,
      name: state.name,
      latitude: coordinate(state.latitude),
      longitude: coordinate(state.longitude),
    }))
    .sort((a, b) => a.name.localeCompare(b.name, "en"));
}

export async function timezonesOf(cca2: string): Promise<CountryRecord["timezones"]> {
  const { getCountryByCode } = await loadCountries();
  return (getCountryByCode(cca2)?.timezones ?? []).map((timezone) => ({
    zone: timezone.zoneName,
    utcOffset: timezone.gmtOffsetName,
    abbreviation: timezone.abbreviation,
    name: timezone.tzName,
  }));
}
