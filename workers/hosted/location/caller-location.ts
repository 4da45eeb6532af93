/**
 * The caller's location as Cloudflare's edge saw it (`request.cf`). Outside Cloudflare's network
 * (tests, some local setups) there is no `cf`; then every field is null and `source` says
 * "unknown" rather than inventing a place.
 */
import { z } from "zod";
import { findCountryByCode } from "../_data/countries";
import type { MyLocation } from "./schema";

/** The geolocation part of IncomingRequestCfProperties; every field may be missing. */
const CfGeoSchema = z.object({
  country: z.string().optional(),
  region: z.string().optional(),
  regionCode: z.string().optional(),
  city: z.string().optional(),
  postalCode: z.string().optional(),
  latitude: z.string().optional(),
  longitude: z.string().optional(),
  timezone: z.string().optional(),
  continent: z.string().optional(),
});

const text = (value: string | undefined) => (value === undefined || value.trim() === "" ? null : value);

function coordinate(value: string | undefined): number | null {
  const number = value === undefined || value.trim() === "" ? Number.NaN : Number(value);
  return Number.isFinite(number) ? number : null;
}

export async function locateCaller(request: Request): Promise<MyLocation> {
  const parsed = CfGeoSchema.safeParse((request as { cf?: unknown }).cf ?? {});
  const geo = parsed.success ? parsed.data : {};
  // "XX" is Cloudflare's "no country information".
  const country = geo.country === "XX" ? null : text(geo.country);
  const location = {
    country,
    countryName: country === null ? null : ((await findCountryByCode(country))?.name.common ?? null),
    region: text(geo.region),
    regionCode: text(geo.regionCode),
    city: text(geo.city),
    postalCode: text(geo.postalCode),
    latitude: coordinate(geo.latitude),
    longitude: coordinate(geo.longitude),
    timezone: text(geo.timezone),
    continent: text(geo.continent),
  };
  const known = Object.values(location).some((value) => value !== null);
  return { source: known ? "cloudflare" : "unknown", ...location };
}
