/**
 * Which currencies a country uses, from CLDR's supplemental currency data (cldr-core, Unicode
 * licence), which follows ISO 4217's amendments: world-countries' own currency lists are
 * frozen at its release and were wrong by 2026 (Bulgaria's lev, Curaçao's and Sint Maarten's
 * ANG, Sierra Leone's SLL, nothing for Micronesia). CLDR dates each tenure, so the answer
 * depends on the day asked: a country's currencies are those legal tender on that day. The file
 * is 70 KB, imported on the first request that needs it (docs/decisions/045-country-facts-from-cldr-and-flag-assets.md).
 */
import { lazy } from "./lazy";

export interface Currency {
  code: string;
  name: string;
  symbol: string;
}

/** One tenure as CLDR writes it: ISO dates, `_tender: "false"` for units that are not money (XXX, CHE). */
export interface Tenure {
  _from?: string;
  _to?: string;
  _tender?: string;
}

export type RegionCurrencies = Record<string, readonly Record<string, Tenure>[]>;

const loadRegions: () => Promise<RegionCurrencies> = lazy(() =>
  import("cldr-core/supplemental/currencyData.json").then(
    ({ default: data }) =>
      (data as unknown as { supplemental: { currencyData: { region: RegionCurrencies } } }).supplemental.currencyData
        .region,
  ),
);

/**
 * The codes legal tender in a region on a day ("2026-11-23"), in CLDR's order (the newest
 * first, which puts the euro before the lev during January 2026's dual circulation). A tenure
 * counts from its `_from` day through its `_to` day: CLDR's `_to` is the last day the old
 * currency was accepted. Days are UTC; CLDR's `_tz` hints (the local midnight of a changeover)
 * are finer than this answer needs.
 */
export function tenderOn(entries: readonly Record<string, Tenure>[], day: string): string[] {
  const codes: string[] = [];
  for (const entry of entries) {
    for (const [code, tenure] of Object.entries(entry)) {
      if (tenure._tender === "false") continue;
      if (tenure._from !== undefined && tenure._from > day) continue;
      if (tenure._to !== undefined && tenure._to < day) continue;
      if (!codes.includes(code)) codes.push(code);
    }
  }
  return codes;
}

/**
 * Names for the currencies ISO 4217 added after world-countries' release, which workerd's ICU
 * (late 2026) does not know either: `Intl.DisplayNames` answers their bare code. Names from ISO
 * 4217, symbols as the issuing central banks print them; the style is world-countries'.
 */
const NEWER_THAN_THE_DATASETS: Readonly<Record<string, { name: string; symbol: string }>> = {
  // The Centrale Bank van Curaçao en Sint Maarten's guilder, issued 2025-03-31.
  XCG: { name: "Caribbean guilder", symbol: "Cg" },
  // The redenominated leone of 2022 (1 SLE = 1,000 SLL).
  SLE: { name: "Sierra Leonean leone", symbol: "Le" },
  // The Reserve Bank of Zimbabwe's ZiG, 2024.
  ZWG: { name: "Zimbabwe gold", symbol: "ZiG" },
};

/** Made on first use: no code in the data needs it today, so most isolates never do. */
let englishCurrencyNames: Intl.DisplayNames | undefined;

/** The runtime's name and narrow symbol, when its ICU knows the code (it answers the code itself when not). */
function describeFromRuntime(code: string): { name: string; symbol: string } | undefined {
  englishCurrencyNames ??= new Intl.DisplayNames("en", { type: "currency", fallback: "code" });
  const name = englishCurrencyNames.of(code);
  if (name === undefined || name === code) return undefined;
  const symbol =
    new Intl.NumberFormat("en", { style: "currency", currency: code, currencyDisplay: "narrowSymbol" })
      .formatToParts(1)
      .find((part) => part.type === "currency")?.value ?? code;
  return { name, symbol };
}

export interface CurrencyNames {
  /** A country's own name and symbol for a code (world-countries: Liechtenstein writes "Fr", Switzerland "Fr."). */
  own: ReadonlyMap<string, { name: string; symbol: string }>;
  /** The name and symbol most countries give the code in world-countries (the euro for Bulgaria). */
  common: ReadonlyMap<string, { name: string; symbol: string }>;
}

/**
 * Names and symbols: the country's own from world-countries where it has the code, then the
 * one most countries in world-countries give it, then the few written above, then the runtime's
 * ICU, and the bare code as the last resort rather than no answer.
 */
export function describeCurrency(code: string, names: CurrencyNames): Currency {
  const described =
    names.own.get(code) ?? names.common.get(code) ?? NEWER_THAN_THE_DATASETS[code] ?? describeFromRuntime(code);
  return { code, name: described?.name ?? code, symbol: described?.symbol ?? code };
}

/** CLDR's tenures by region (alpha-2), loaded once. */
export const loadCurrencyRegions = loadRegions;

/** "2026-11-23": the UTC day a request is answered for. */
export function dayOf(date: Date): string {
  return date.toISOString().slice(0, 10);
}
