import fc from "fast-check";
import { describe, expect, it } from "vitest";
// The dataset's own JSON file, read apart from the module under test, as the reference.
import dataset from "world-countries/countries.json";
import { createTestContext } from "../../../tests/hosted-context";
import { invalidInputFromZod, PROBLEM_TYPES } from "~workers/http/problem";
import {
  callOperation,
  expectExampleIsReal,
  expectJson,
  expectNeverThrows,
  expectProblem,
  findOperation,
} from "../_data/operation-test-helpers";
import { definition } from "./index";
import type { CountryRecord, CountryStates, MyLocation } from "./schema";

const listCountries = findOperation(definition, "listCountries");
const listCountryStates = findOperation(definition, "listCountryStates");
const getMyLocation = findOperation(definition, "getMyLocation");

async function countries(raw: Record<string, unknown>): Promise<CountryRecord[]> {
  return (expectJson(await callOperation(listCountries, raw)) as { data: CountryRecord[] }).data;
}

async function states(code: string): Promise<CountryStates> {
  return expectJson(await callOperation(listCountryStates, { code })) as CountryStates;
}

/** A request as Cloudflare's edge hands it over, with `cf` filled in. */
function requestFrom(cf: Record<string, string>): Request {
  return new Request("https://portico.test/api/v1/location/me", { cf } as RequestInit);
}

async function locate(request?: Request): Promise<MyLocation> {
  return expectJson(await callOperation(getMyLocation, {}, createTestContext({ request }))) as MyLocation;
}

describe("location: countries", () => {
  it.each(["IN", "in", "IND", "ind"])("%s is India, with every field of the record", async (code) => {
    const [india, ...others] = await countries({ code });
    expect(others).toEqual([]);
    expect(india).toMatchObject({
      name: { common: "India", official: "Republic of India" },
      cca2: "IN",
      cca3: "IND",
      capital: ["New Delhi"],
      region: "Asia",
      subregion: "Southern Asia",
      callingCode: "+91",
      flag: "🇮🇳",
    });
    expect(india?.currencies.map((currency) => currency.code)).toEqual(["INR"]);
    expect(india?.languages.map((language) => language.name)).toContain("Hindi");
    expect(india?.timezones.map((timezone) => timezone.zone)).toEqual(["Asia/Kolkata"]);
    expect(india?.latlng).toEqual([20, 77]);
  });

  it("gives the United States its several time zones", async () => {
    const [us] = await countries({ code: "US" });
    expect(us?.timezones.map((timezone) => timezone.zone)).toEqual(
      expect.arrayContaining(["America/New_York", "America/Los_Angeles"]),
    );
  });

  it("filters by region or subregion, case-insensitively", async () => {
    const europe = await countries({ region: "europe" });
    expect(europe.map((country) => country.cca2)).toEqual(expect.arrayContaining(["DE", "FR", "GB"]));
    for (const country of europe) expect(country.region).toBe("Europe");
    expect((await countries({ region: "Southern Asia" })).map((country) => country.cca2)).toContain("IN");
  });

  it("filters by calling code and by the start of a name word, all filters together", async () => {
    expect((await countries({ callingCode: "+44" })).map((country) => country.cca2)).toEqual(["GG", "IM", "JE", "GB"]);
    expect((await countries({ name: "united", region: "Europe" })).map((country) => country.cca2)).toEqual(["GB"]);
  });

  it("answers every country, sorted by name, without filters", async () => {
    const all = await countries({});
    expect(all).toHaveLength(250);
    const names = all.map((country) => country.name.common);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, "en")));
  });

  it("answers an empty list for a code no country has", async () => {
    expect(await countries({ code: "ZZ" })).toEqual([]);
  });

  it.each([{ code: "INDIA" }, { code: "1N" }, { callingCode: "plus one" }])("the schema refuses %j", (raw) => {
    expect(listCountries.input.safeParse(raw).success).toBe(false);
  });
});

interface DatasetCountry {
  cca2: string;
  cca3: string;
  ccn3: string;
  tld: string[];
  borders: string[];
  demonyms: Record<string, { f: string; m: string }>;
  altSpellings: string[];
  translations: Record<string, { common: string; official: string }>;
  unMember: boolean;
  independent: boolean | null;
  landlocked: boolean;
  area: number;
  capital: string[];
  languages: Record<string, string>;
}

const reference = dataset as unknown as DatasetCountry[];

const referenceCodes = (keep: (country: DatasetCountry) => boolean): string[] =>
  reference
    .filter(keep)
    .map((country) => country.cca3)
    .sort();

async function codesFor(raw: Record<string, unknown>): Promise<string[]> {
  return (await countries({ ...raw, fields: "cca3" })).map((country) => country.cca3 ?? "").sort();
}

describe("location: the REST Countries fields", () => {
  // Switzerland (four languages, demonyms in two), India, Kosovo (no numeric code, open
  // independence), Svalbard (-1 area in the data), the United States, Antarctica (no capital).
  it.each(["CHE", "IND", "UNK", "SJM", "USA", "ATA"])("%s carries the dataset's values", async (code) => {
    const expected = reference.find((country) => country.cca3 === code);
    const [record] = await countries({ code });
    expect(expected).toBeDefined();
    expect(record).toMatchObject({
      ccn3: expected?.ccn3 === "" ? null : expected?.ccn3,
      tld: expected?.tld,
      borders: expected?.borders,
      demonyms: expected?.demonyms,
      altSpellings: expected?.altSpellings,
      translations: expected?.translations,
      unMember: expected?.unMember,
      independent: expected?.independent ?? null,
      landlocked: expected?.landlocked,
      area: expected !== undefined && expected.area >= 0 ? expected.area : null,
    });
  });

  it("gives every country its numeric code, UN membership, borders and area as the dataset has them", async () => {
    const all = await countries({ fields: "cca3,ccn3,unMember,borders,area" });
    expect(all).toHaveLength(reference.length);
    for (const country of reference) {
      expect(all.find((record) => record.cca3 === country.cca3)).toEqual({
        cca3: country.cca3,
        ccn3: country.ccn3 === "" ? null : country.ccn3,
        // The one correction to the dataset: see the next test.
        unMember: country.cca3 === "VAT" ? false : country.unMember,
        borders: country.borders,
        area: country.area >= 0 ? country.area : null,
      });
    }
  });

  it("counts the 193 UN member states, without the observer states (the dataset makes the Holy See a 194th)", async () => {
    const members = (await countries({ fields: "cca3,unMember" })).filter((record) => record.unMember);
    expect(members).toHaveLength(193);
    const observers = (await countries({ fields: "cca3,unMember" })).filter((record) =>
      ["VAT", "PSE"].includes(record.cca3 ?? ""),
    );
    expect(observers).toEqual([
      { cca3: "PSE", unMember: false },
      { cca3: "VAT", unMember: false },
    ]);
  });
});

describe("location: look-ups by currency, language and capital", () => {
  // Exactly which countries each currency gives, against CLDR: currencies.test.ts.
  it("finds a currency by its code in any case", async () => {
    // Montenegro and Kosovo use the euro without issuing it; CLDR lists both.
    expect(await codesFor({ currency: "EUR" })).toEqual(expect.arrayContaining(["DEU", "FRA", "MNE", "UNK"]));
    expect(await codesFor({ currency: "eur" })).toEqual(await codesFor({ currency: "EUR" }));
  });

  it("finds a currency by its English name, whole", async () => {
    expect(await codesFor({ currency: "swiss franc" })).toEqual(["CHE", "LIE"]);
    expect(await codesFor({ currency: "swiss" })).toEqual([]);
  });

  it("answers exactly the countries the dataset gives each language, by ISO 639-3 code or English name", async () => {
    const languages = new Map(reference.flatMap((country) => Object.entries(country.languages)));
    expect(languages.size).toBeGreaterThan(100);
    for (const [code, name] of languages) {
      const byCode = referenceCodes((country) => code in country.languages);
      const byName = referenceCodes((country) => Object.values(country.languages).includes(name));
      expect(await codesFor({ language: code }), code).toEqual(byCode);
      expect(await codesFor({ language: name.toUpperCase() }), name).toEqual(byName);
    }
  });

  it("answers exactly the countries whose capital the dataset names, case and accents ignored", async () => {
    const capitals = new Set(reference.flatMap((country) => country.capital));
    expect(capitals.size).toBeGreaterThan(200);
    for (const capital of capitals) {
      expect(await codesFor({ capital }), capital).toEqual(
        referenceCodes((country) => country.capital.includes(capital)),
      );
    }
    expect(await codesFor({ capital: "BOGOTA" })).toEqual(["COL"]);
    expect(await codesFor({ capital: "new" })).toEqual([]);
  });

  it("combines the look-ups with the other filters", async () => {
    const euro = await codesFor({ currency: "EUR" });
    expect(await codesFor({ currency: "EUR", language: "German" })).toEqual(
      referenceCodes((country) => euro.includes(country.cca3) && Object.values(country.languages).includes("German")),
    );
  });
});

describe("location: fields", () => {
  it("answers only the listed fields, spaces and repeats ignored", async () => {
    const [india] = await countries({ code: "IN", fields: "name, capital,name" });
    expect(Object.keys(india ?? {})).toEqual(["name", "capital"]);
    expect(india).toMatchObject({ name: { common: "India", official: "Republic of India" }, capital: ["New Delhi"] });
  });

  it("can ask for time zones alone", async () => {
    const [india] = await countries({ code: "IN", fields: "timezones" });
    expect(Object.keys(india ?? {})).toEqual(["timezones"]);
    expect(india?.timezones?.map((timezone) => timezone.zone)).toEqual(["Asia/Kolkata"]);
  });

  it("answers the whole record for an empty list", async () => {
    const [whole] = await countries({ code: "IN" });
    expect(await countries({ code: "IN", fields: "" })).toEqual([whole]);
  });

  it("refuses unknown field names with a 422 naming each of them", () => {
    const result = listCountries.input.safeParse({ fields: "name,coatOfArms,gini" });
    if (result.success) throw new Error("fields=name,coatOfArms,gini was accepted");
    // As the gateway's input step answers it.
    const refusal = invalidInputFromZod(result.error, { root: "input", fieldInDetail: true });
    expect(PROBLEM_TYPES[refusal.type].status).toBe(422);
    expect(refusal.detail).toMatch(/^fields: unknown fields coatOfArms, gini; the fields are name, cca2, /);
    expect(Object.keys(refusal.extensions.errors)).toEqual(["fields"]);
  });
});

/**
 * Independent reference: facts from IANA tzdata's NEWS, written out here, not read from the
 * runtime under test. Zones that keep clock changes (Sydney, Nuuk) have a current offset that
 * depends on today, checked at fixed dates in time-zones.test.ts; the others have none, so their
 * current offset is standard whatever the date.
 */
const KNOWN_STANDARD_OFFSETS: { cca2: string; zone: string; standard: string; noDst: boolean }[] = [
  { cca2: "AU", zone: "Australia/Sydney", standard: "UTC+10:00", noDst: false }, // AEST; AEDT is +11:00
  { cca2: "KZ", zone: "Asia/Almaty", standard: "UTC+05:00", noDst: true }, // 2024a: Kazakhstan unifies on +05 from 2024-03-01
  { cca2: "JO", zone: "Asia/Amman", standard: "UTC+03:00", noDst: true }, // 2022f: permanent +03 from 2022-10-28
  { cca2: "SY", zone: "Asia/Damascus", standard: "UTC+03:00", noDst: true }, // 2022f: permanent +03
  { cca2: "RU", zone: "Europe/Volgograd", standard: "UTC+03:00", noDst: true }, // 2020e: back to Moscow time 2020-12-27
  { cca2: "WS", zone: "Pacific/Apia", standard: "UTC+13:00", noDst: true }, // 2021b: Samoa drops DST
  { cca2: "SS", zone: "Africa/Juba", standard: "UTC+02:00", noDst: true }, // 2021a: +03 → +02 on 2021-02-01
  { cca2: "MX", zone: "America/Chihuahua", standard: "UTC-06:00", noDst: true }, // 2022f: year-round -06 from 2022-10-30
  { cca2: "GL", zone: "America/Nuuk", standard: "UTC-02:00", noDst: false }, // 2022g/2023d: -02 standard since 2023, DST -01 from 2024
];

const hasBalancedParentheses = (text: string): boolean => {
  let depth = 0;
  for (const character of text) {
    if (character === "(") depth++;
    if (character === ")" && --depth < 0) return false;
  }
  return depth === 0;
};

describe("location: time zones", () => {
  it.each(KNOWN_STANDARD_OFFSETS)("$zone's standard offset is $standard", async ({ cca2, zone, standard, noDst }) => {
    const [country] = await countries({ code: cca2 });
    const timezone = country?.timezones.find((candidate) => candidate.zone === zone);
    expect(timezone?.utcOffset).toBe(standard);
    if (noDst) expect(timezone).toMatchObject({ currentOffset: standard, dst: false });
  });

  it("names every zone of every country whole, and flags daylight saving exactly when current differs from standard", async () => {
    const all = await countries({});
    let zones = 0;
    for (const country of all) {
      for (const timezone of country.timezones) {
        zones++;
        for (const name of [timezone.name, timezone.currentName, timezone.abbreviation, timezone.currentAbbreviation]) {
          expect(name, `${timezone.zone}: ${name}`).not.toBe("");
          expect(hasBalancedParentheses(name), `${timezone.zone}: ${name}`).toBe(true);
        }
        expect(timezone.dst, timezone.zone).toBe(timezone.currentOffset !== timezone.utcOffset);
      }
    }
    // Every zone country-state-city lists is described; none dropped on the way.
    expect(zones).toBe(428);
  });
});

describe("location: states", () => {
  it("the states of India include Karnataka (KA), each with coordinates", async () => {
    const india = await states("IN");
    expect(india.country).toEqual({ name: "India", cca2: "IN", cca3: "IND" });
    expect(india.data).toContainEqual({ code: "KA", name: "Karnataka", latitude: 15.3172775, longitude: 75.7138884 });
    expect(india.data.length).toBeGreaterThan(30);
  });

  it("takes the alpha-3 code in any case", async () => {
    expect((await states("ind")).data).toEqual((await states("IN")).data);
  });

  it.each(["ZZ", "ZZZ"])("answers not-found for the unknown code %s", async (code) => {
    expect(expectProblem(await callOperation(listCountryStates, { code }), "not-found")).toContain(code);
  });
});

describe("location: the caller's own location", () => {
  it("reports unknown, with nothing invented, when the request has no cf (local development)", async () => {
    expect(await locate()).toEqual({
      source: "unknown",
      country: null,
      countryName: null,
      region: null,
      regionCode: null,
      city: null,
      postalCode: null,
      latitude: null,
      longitude: null,
      timezone: null,
      continent: null,
    });
  });

  it("reads Cloudflare's geolocation and names the country", async () => {
    const location = await locate(
      requestFrom({
        country: "GB",
        city: "London",
        latitude: "51.50853",
        longitude: "-0.12574",
        timezone: "Europe/London",
      }),
    );
    expect(location).toMatchObject({
      source: "cloudflare",
      country: "GB",
      countryName: "United Kingdom",
      city: "London",
      latitude: 51.50853,
      longitude: -0.12574,
      timezone: "Europe/London",
      postalCode: null,
    });
  });

  it("does not pass Cloudflare's XX (no country) off as a country", async () => {
    expect(await locate(requestFrom({ country: "XX" }))).toMatchObject({ source: "unknown", country: null });
  });

  it("keeps Tor's T1 without inventing a country name", async () => {
    expect(await locate(requestFrom({ country: "T1" }))).toMatchObject({
      source: "cloudflare",
      country: "T1",
      countryName: null,
    });
  });
});

describe("location: properties", () => {
  const text = fc.oneof(fc.string(), fc.constantFrom("in", "IND", "asia", "+1", "ÅLAND", "", " "));

  it("listCountries never throws on arbitrary or hostile input", async () => {
    await expectNeverThrows(listCountries, {
      name: text,
      code: text,
      region: text,
      callingCode: text,
      currency: fc.oneof(text, fc.constantFrom("EUR", "euro", "xcg")),
      language: fc.oneof(text, fc.constantFrom("deu", "German", "Français")),
      capital: fc.oneof(text, fc.constantFrom("Bogotá", "new delhi")),
      subregion: fc.oneof(text, fc.constantFrom("Caribbean", "southern asia")),
      demonym: fc.oneof(text, fc.constantFrom("Swiss", "allemande")),
      translation: fc.oneof(text, fc.constantFrom("suiza", "ドイツ", "deutsch")),
      independent: fc.oneof(text, fc.constantFrom("true", "false")),
      fields: fc.oneof(
        text,
        fc.constantFrom(
          "name",
          "cca3,timezones",
          "name,,capital",
          "flag, area ",
          "population,continents,flags",
          "gini",
        ),
      ),
    });
  });

  it("listCountryStates never throws on arbitrary or hostile input", async () => {
    await expectNeverThrows(listCountryStates, { code: fc.oneof(text, fc.stringMatching(/^[A-Za-z]{2,3}$/)) });
  });

  it("getMyLocation never throws, whatever cf holds", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.constantFrom("country", "city", "latitude", "longitude", "region"), fc.string()),
        async (cf) => {
          const location = await locate(requestFrom(cf));
          expect(["cloudflare", "unknown"]).toContain(location.source);
        },
      ),
      { numRuns: 100 },
    );
    await expectNeverThrows(getMyLocation, { anything: fc.jsonValue() });
  });
});

describe("location: documentation", () => {
  it.each([listCountries, listCountryStates])(
    "$id's example output is what the example input produces",
    async (operation) => {
      // Flag URLs are on the request's origin; the docs show the production one.
      await expectExampleIsReal(operation, createTestContext({ origin: "https://portico.dev" }));
    },
  );

  it("getMyLocation's example is what a request from Bengaluru produces", async () => {
    const request = requestFrom({
      country: "IN",
      region: "Karnataka",
      regionCode: "KA",
      city: "Bengaluru",
      postalCode: "560001",
      latitude: "12.97160",
      longitude: "77.59460",
      timezone: "Asia/Kolkata",
      continent: "AS",
    });
    await expectExampleIsReal(getMyLocation, createTestContext({ request }));
  });
});
