import { describe, expect, it } from "vitest";
// The datasets, read here apart from the module under test: CLDR's territory figures and
// containment (the runtime serves them too, so fixed facts are checked as well) and
// world-countries for native names, subregions, demonyms and translations.
import territoryContainment from "cldr-core/supplemental/territoryContainment.json";
import territoryInfo from "cldr-core/supplemental/territoryInfo.json";
import dataset from "world-countries/countries.json";
import { invalidInputFromZod } from "~workers/http/problem";
import { callOperation, expectJson, findOperation } from "../_data/operation-test-helpers";
import { definition } from "./index";
import type { CountryRecord } from "./schema";

const listCountries = findOperation(definition, "listCountries");

async function countries(raw: Record<string, unknown>): Promise<Partial<CountryRecord>[]> {
  return (expectJson(await callOperation(listCountries, raw)) as { data: Partial<CountryRecord>[] }).data;
}

async function codesFor(raw: Record<string, unknown>): Promise<string[]> {
  return (await countries({ ...raw, fields: "cca3" })).map((country) => country.cca3 ?? "").sort();
}

interface DatasetCountry {
  cca2: string;
  cca3: string;
  name: { common: string; official: string; native: Record<string, { common: string; official: string }> };
  subregion: string;
  independent: boolean | null;
  demonyms: Record<string, { f: string; m: string }>;
  translations: Record<string, { common: string; official: string }>;
}

const reference = dataset as unknown as DatasetCountry[];

const referenceCodes = (keep: (country: DatasetCountry) => boolean): string[] =>
  reference
    .filter(keep)
    .map((country) => country.cca3)
    .sort();

const fold = (text: string): string =>
  text
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase();

const info = (territoryInfo as unknown as { supplemental: { territoryInfo: Record<string, { _population?: string }> } })
  .supplemental.territoryInfo;

const containment = (
  territoryContainment as unknown as {
    supplemental: {
      territoryContainment: Record<string, { _contains: string[]; _grouping?: string; _status?: string }>;
    };
  }
).supplemental.territoryContainment;

/** The UN M49 group that holds a territory directly (its subregion), ignoring CLDR's overlapping groupings. */
function parentOf(code: string): string | undefined {
  return Object.entries(containment).find(
    ([parent, group]) =>
      /^\d{3}$|^QO$/.test(parent) &&
      group._grouping === undefined &&
      group._status === undefined &&
      group._contains.includes(code),
  )?.[0];
}

/** REST Countries' continent names over the M49 tree, written out here. */
function continentOf(cca2: string): string {
  if (cca2 === "AQ") return "Antarctica";
  const path: string[] = [];
  for (let at = parentOf(cca2); at !== undefined && at !== "001"; at = parentOf(at)) path.push(at);
  if (path.includes("005")) return "South America";
  if (path.includes("019")) return "North America";
  const names: Record<string, string> = { "002": "Africa", "142": "Asia", "150": "Europe", "009": "Oceania" };
  const continent = path.map((code) => names[code]).find((name) => name !== undefined);
  if (!continent) throw new Error(`${cca2} is on no continent: ${path.join(" < ")}`);
  return continent;
}

describe("location: population", () => {
  it("is CLDR's figure for every country", async () => {
    const all = await countries({ fields: "cca2,population" });
    expect(all).toHaveLength(reference.length);
    for (const country of all) {
      expect(country.population, country.cca2).toBe(Number(info[country.cca2 ?? ""]?._population));
    }
  });

  it("holds known magnitudes (not read from CLDR), and the world adds up to about eight billion", async () => {
    const all = await countries({ fields: "cca2,population" });
    const of = (cca2: string): number => all.find((country) => country.cca2 === cca2)?.population ?? Number.NaN;
    expect(of("IN")).toBeGreaterThan(1.35e9);
    expect(of("CN")).toBeGreaterThan(1.35e9);
    expect(of("US")).toBeGreaterThan(3.2e8);
    expect(of("US")).toBeLessThan(3.6e8);
    expect(of("VA")).toBeGreaterThan(400);
    expect(of("VA")).toBeLessThan(1100);
    const world = all.reduce((sum, country) => sum + (country.population ?? 0), 0);
    expect(world).toBeGreaterThan(7.8e9);
    expect(world).toBeLessThan(8.5e9);
  });
});

describe("location: continents", () => {
  it.each([
    ["IN", "Asia"],
    ["FR", "Europe"],
    ["RU", "Europe"],
    ["TR", "Asia"],
    ["BR", "South America"],
    ["MX", "North America"],
    ["JM", "North America"],
    ["PA", "North America"],
    ["AU", "Oceania"],
    ["EG", "Africa"],
    ["AQ", "Antarctica"],
  ])("%s is in %s", async (cca2, continent) => {
    const [country] = await countries({ code: cca2, fields: "continents" });
    expect(country).toEqual({ continents: [continent] });
  });

  it("follows CLDR's territory containment for every country", async () => {
    const all = await countries({ fields: "cca2,continents" });
    for (const country of all) {
      expect(country.continents, country.cca2).toEqual([continentOf(country.cca2 ?? "")]);
    }
  });
});

describe("location: native names", () => {
  it("gives every country world-countries' native names", async () => {
    const all = await countries({ fields: "cca3,name" });
    expect(all).toHaveLength(reference.length);
    for (const country of reference) {
      expect(all.find((record) => record.cca3 === country.cca3)?.name, country.cca3).toEqual({
        common: country.name.common,
        official: country.name.official,
        nativeName: country.name.native,
      });
    }
    const [germany] = await countries({ code: "DE", fields: "name" });
    expect(germany?.name?.nativeName).toEqual({
      deu: { official: "Bundesrepublik Deutschland", common: "Deutschland" },
    });
  });
});

describe("location: look-ups by subregion, demonym, translation and independence", () => {
  it("answers exactly the countries of each subregion, case ignored", async () => {
    const subregions = new Set(reference.map((country) => country.subregion).filter((name) => name !== ""));
    expect(subregions.size).toBeGreaterThan(20);
    for (const subregion of subregions) {
      expect(await codesFor({ subregion: subregion.toUpperCase() }), subregion).toEqual(
        referenceCodes((country) => country.subregion === subregion),
      );
    }
    // A region is not a subregion.
    expect(await codesFor({ subregion: "Europe" })).toEqual([]);
  });

  it("answers exactly the countries whose people have each demonym, in any language, whole", async () => {
    // The dataset leaves some demonyms empty (Bouvet Island's); an empty filter is no filter.
    const demonyms = new Set(
      reference
        .flatMap((country) => Object.values(country.demonyms).flatMap(({ f, m }) => [f, m]))
        .filter((demonym) => demonym.trim() !== ""),
    );
    expect(demonyms.size).toBeGreaterThan(300);
    for (const demonym of demonyms) {
      expect(await codesFor({ demonym: demonym.toLowerCase() }), demonym).toEqual(
        referenceCodes((country) =>
          Object.values(country.demonyms).some(({ f, m }) => fold(f) === fold(demonym) || fold(m) === fold(demonym)),
        ),
      );
    }
    expect(await codesFor({ demonym: "Peruvian" })).toEqual(["PER"]);
    expect(await codesFor({ demonym: "allemande" })).toEqual(["DEU"]);
    expect(await codesFor({ demonym: "german" })).toEqual(["DEU"]);
    expect(await codesFor({ demonym: "germ" })).toEqual([]);
  });

  it("finds a country by the start of a word of its name in any language", async () => {
    const startsAWord = (name: string, fragment: string): boolean =>
      new RegExp(`(^|[^\\p{L}\\p{N}])${fragment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`, "u").test(fold(name));
    for (const country of reference) {
      for (const language of ["deu", "spa", "jpn"]) {
        const translated = country.translations[language]?.common;
        if (!translated) continue;
        const found = await codesFor({ translation: translated });
        expect(found, `${country.cca3} ${language} ${translated}`).toContain(country.cca3);
        expect(found, translated).toEqual(
          referenceCodes((candidate) =>
            Object.values(candidate.translations).some(
              ({ common, official }) =>
                startsAWord(common, fold(translated)) || startsAWord(official, fold(translated)),
            ),
          ),
        );
      }
    }
    expect(await codesFor({ translation: "alemania" })).toEqual(["DEU"]);
    expect(await codesFor({ translation: "deutschland" })).toEqual(["DEU"]);
    expect(await codesFor({ translation: "Allemagne" })).toEqual(["DEU"]);
  });

  it("filters by independence, leaving out Kosovo whose status the dataset leaves open", async () => {
    expect(await codesFor({ independent: "true" })).toEqual(referenceCodes((country) => country.independent === true));
    expect(await codesFor({ independent: "false" })).toEqual(
      referenceCodes((country) => country.independent === false),
    );
    expect(await codesFor({ independent: "true" })).not.toContain("UNK");
  });

  it("refuses an independence that is not true or false", () => {
    expect(listCountries.input.safeParse({ independent: "yes" }).success).toBe(false);
  });
});

describe("location: fields covers the new ones", () => {
  it("answers population, continents and flags alone when asked", async () => {
    const [india] = await countries({ code: "IN", fields: "population,continents" });
    expect(india).toEqual({ population: Number(info.IN?._population), continents: ["Asia"] });
  });

  it("still refuses names REST Countries has and we do not", () => {
    const result = listCountries.input.safeParse({ fields: "population,gini,car" });
    if (result.success) throw new Error("fields=population,gini,car was accepted");
    const refusal = invalidInputFromZod(result.error, { root: "input", fieldInDetail: true });
    expect(refusal.detail).toMatch(/^fields: unknown fields gini, car; the fields are /);
  });
});
