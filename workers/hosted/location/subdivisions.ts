/**
 * States, and which time zones each country has, from country-state-city. Only its state and
 * country modules are imported (117 KB and 13 KB gzip); its city module would pull in an 8 MB
 * dataset, which does not fit in the Worker (docs/decisions/002-location-data.md).
 */
import type { IState } from "country-state-city/lib/interface";
import { lazy } from "../_data/lazy";
import type { CountryStates, Timezone } from "./schema";
import { describeZone } from "./time-zones";

const loadStates = lazy(() => import("country-state-city/lib/state").then((module) => module.default));
const loadCountries = lazy(() => import("country-state-city/lib/country").then((module) => module.default));

/** The dataset keeps coordinates as strings ("15.31727750") and sometimes null. */
function coordinate(value: string | null | undefined): number | null {
  if (value === null || value === undefined || value.trim() === "") return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : null;
}

type State = CountryStates["data"][number];

function toState(state: IState): State {
  return {
    code: state.isoCode,
    name: state.name,
    latitude: coordinate(state.latitude),
    longitude: coordinate(state.longitude),
  };
}

export async function statesOf(cca2: string): Promise<State[]> {
  const { getStatesOfCountry } = await loadStates();
  return getStatesOfCountry(cca2)
    .map(toState)
    .sort((a, b) => a.name.localeCompare(b.name, "en"));
}

/**
 * The state of a country with this code, in any case (codes are unique within a country even
 * ignoring case), as `statesOf` lists it; undefined when the country has none by that code.
 */
export async function findState(cca2: string, code: string): Promise<State | undefined> {
  const upper = code.trim().toUpperCase();
  const { getStatesOfCountry } = await loadStates();
  const state = getStatesOfCountry(cca2).find((candidate) => candidate.isoCode.toUpperCase() === upper);
  return state === undefined ? undefined : toState(state);
}

/**
 * The country's zones as country-state-city lists them (which zones a country has changes
 * rarely), each described from the runtime's time-zone database as it stands at `now`.
 */
export async function timezonesOf(cca2: string, now: Date): Promise<Timezone[]> {
  const { getCountryByCode } = await loadCountries();
  return (getCountryByCode(cca2)?.timezones ?? []).map((timezone) => describeZone(timezone.zoneName, cca2, now));
}
