/**
 * Population and continents from CLDR's supplemental data (cldr-core, Unicode licence), for the
 * figures world-countries does not carry (docs/decisions/045-country-facts-from-cldr-and-flag-assets.md).
 *
 * Population is `territoryInfo`'s `_population`: CLDR 48 (2025) carries the CIA World Factbook's
 * estimates, rounded to about six significant figures (India's 1,409,130,000 is the Factbook's
 * July 2024 estimate). Uninhabited territories have token figures there (1 for Bouvet Island and
 * Heard Island, 20 for South Georgia), served as CLDR has them.
 *
 * Continents follow `territoryContainment`, the UN M49 tree, named as REST Countries names them.
 * The files are 185 KB and 12 KB (14 KB and 2 KB gzip), imported on the first request that needs them.
 */
import { lazy } from "./lazy";

export interface TerritoryFacts {
  populationOf(cca2: string): number | null;
  continentsOf(cca2: string): string[];
}

interface Containment {
  _contains: readonly string[];
  /** Overlapping groupings beside the tree (EU, UN, Latin America): not a parent. */
  _grouping?: string;
  /** Deprecated or superseded groups. */
  _status?: string;
}

/**
 * M49 areas as REST Countries names continents. The Americas split at South America (005); the
 * rest of them (Central America, the Caribbean, Northern America) are North America, as
 * REST Countries has them. A territory's nearest listed ancestor wins, so 005 before 019.
 */
const CONTINENT_NAMES: Readonly<Record<string, string>> = {
  "002": "Africa",
  "142": "Asia",
  "150": "Europe",
  "009": "Oceania",
  "005": "South America",
  "019": "North America",
};

/** M49 codes are three digits; QO (Outlying Oceania) is CLDR's one lettered area inside the tree. */
const TREE_AREA = /^(?:\d{3}|QO)$/;

export function continentsIn(containment: Readonly<Record<string, Containment>>): (cca2: string) => string[] {
  const parents = new Map<string, string>();
  for (const [area, group] of Object.entries(containment)) {
    if (!TREE_AREA.test(area) || group._grouping !== undefined || group._status !== undefined) continue;
    for (const member of group._contains) parents.set(member, area);
  }
  return (cca2) => {
    // CLDR files Antarctica under Outlying Oceania; it is a continent of its own.
    if (cca2 === "AQ") return ["Antarctica"];
    for (let area = parents.get(cca2); area !== undefined; area = parents.get(area)) {
      const name = CONTINENT_NAMES[area];
      if (name) return [name];
    }
    return [];
  };
}

export const loadTerritoryFacts = lazy(async (): Promise<TerritoryFacts> => {
  const [{ default: info }, { default: containment }] = await Promise.all([
    import("cldr-core/supplemental/territoryInfo.json"),
    import("cldr-core/supplemental/territoryContainment.json"),
  ]);
  const territories = (info as unknown as { supplemental: { territoryInfo: Record<string, { _population?: string }> } })
    .supplemental.territoryInfo;
  const continentsOf = continentsIn(
    (containment as unknown as { supplemental: { territoryContainment: Record<string, Containment> } }).supplemental
      .territoryContainment,
  );
  return {
    populationOf(cca2) {
      const population = Number(territories[cca2]?._population);
      return Number.isFinite(population) && territories[cca2]?._population !== undefined ? population : null;
    },
    continentsOf,
  };
});
