/**
 * The visitor's country (docs/product.md#country): Cloudflare's `request.cf.country`, else the `CF-IPCountry`
 * header, else IN, the product's default (docs/product.md#country). It picks the pricing: IN pays in rupees through
 * Cashfree, everyone else in US dollars through PayPal.
 */
import type { Config } from "~workers/config";
import { clientAddress } from "./throttle";
import { sha256Hex } from "./ids";

export const DEFAULT_COUNTRY = "IN";
const COUNTRY_PATTERN = /^[A-Z]{2}$/;
const CACHE_TTL_SECONDS = 24 * 60 * 60;

export function countryOf(request: Request, config: Pick<Config, "isDevelopment">): string {
  // Development has no edge to tell the country: `?country=XX` stands in for it.
  if (config.isDevelopment) {
    const chosen = new URL(request.url).searchParams.get("country")?.toUpperCase();
    if (chosen && COUNTRY_PATTERN.test(chosen)) return chosen;
  }
  const fromEdge = (request.cf as { country?: unknown } | undefined)?.country;
  if (typeof fromEdge === "string" && COUNTRY_PATTERN.test(fromEdge) && fromEdge !== "XX") return fromEdge;
  const header = request.headers.get("cf-ipcountry")?.toUpperCase();
  if (header && COUNTRY_PATTERN.test(header) && header !== "XX" && header !== "T1") return header;
  return DEFAULT_COUNTRY;
}

/** The country, cached in KV per client address (hashed) for a day. */
export async function cachedCountryOf(
  request: Request,
  config: Pick<Config, "isDevelopment">,
  cache: KVNamespace,
): Promise<string> {
  const country = countryOf(request, config);
  if (config.isDevelopment && new URL(request.url).searchParams.has("country")) return country;
  const name = `country:${await sha256Hex(clientAddress(request))}`;
  const cached = await cache.get(name);
  if (cached && COUNTRY_PATTERN.test(cached)) return cached;
  await cache.put(name, country, { expirationTtl: CACHE_TTL_SECONDS });
  return country;
}

export type Currency = "USD" | "INR";

export function currencyFor(country: string): Currency {
  return country === "IN" ? "INR" : "USD";
}
