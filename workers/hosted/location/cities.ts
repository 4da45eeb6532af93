/**
 * The `cities` table (migrations/0007_create_cities.sql). The Worker only reads it; the rows come
 * from country-state-city through scripts/seed-cities.ts, because the dataset does not fit in the
 * Worker (docs/decisions/011-cities-from-d1.md).
 */
import type { City } from "./schema";

interface CityRow {
  name: string;
  latitude: number | null;
  longitude: number | null;
}

function toCity(row: CityRow): City {
  return { name: row.name, latitude: row.latitude, longitude: row.longitude };
}

/**
 * Every city of one state, unordered. The caller filters and sorts them in the Worker because
 * SQLite's NOCASE and LIKE fold ASCII only: they would sort "Ébolowa" after "Sangmélima" and
 * not find it for "eb". A state holds 2,919 cities at most (England), so reading them all stays
 * small; the primary key makes it one range scan.
 */
export async function listStateCities(db: D1Database, countryCode: string, stateCode: string): Promise<City[]> {
  const { results } = await db
    .prepare("SELECT name, latitude, longitude FROM cities WHERE country_code = ? AND state_code = ?")
    .bind(countryCode, stateCode)
    .all<CityRow>();
  return results.map(toCity);
}

/** Whether any city of the country is loaded: tells a state without cities from a database never seeded. */
export async function hasCountryCities(db: D1Database, countryCode: string): Promise<boolean> {
  const row = await db
    .prepare("SELECT 1 AS found FROM cities WHERE country_code = ? LIMIT 1")
    .bind(countryCode)
    .first<{ found: number }>();
  return row !== null;
}

/** The cities table as the location handlers reach it (`ctx.cities`). */
export interface CityStore {
  listStateCities(countryCode: string, stateCode: string): Promise<City[]>;
  hasCountryCities(countryCode: string): Promise<boolean>;
}

export function d1Cities(db: D1Database): CityStore {
  return {
    listStateCities: (countryCode, stateCode) => listStateCities(db, countryCode, stateCode),
    hasCountryCities: (countryCode) => hasCountryCities(db, countryCode),
  };
}

/**
 * Countries whose states country-state-city lists but which have no city in its city list.
 * For them an empty table is the dataset's own answer, not a missing seed, so they answer an
 * empty list rather than "not loaded". cities.test.ts checks this list against the package.
 */
export const COUNTRIES_WITHOUT_CITY_DATA: ReadonlySet<string> = new Set(["BM", "HK", "MC", "MH", "XK"]);
