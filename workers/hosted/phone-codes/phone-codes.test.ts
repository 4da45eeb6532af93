import fc from "fast-check";
import countries from "world-countries";
import { describe, expect, it } from "vitest";
import { countryCodeLength, describeCallingCode } from "../_data/calling-code";
import {
  callOperation,
  expectExampleIsReal,
  expectJson,
  expectNeverThrows,
  findOperation,
} from "../_data/operation-test-helpers";
import { definition } from "./index";
import type { PhoneCodes } from "./schema";

const listPhoneCodes = findOperation(definition, "listPhoneCodes");

async function list(raw: Record<string, unknown>): Promise<PhoneCodes["data"]> {
  return (expectJson(await callOperation(listPhoneCodes, raw)) as PhoneCodes).data;
}

/** The code's own row; names starting with the same letters ("IN": Indonesia) may come too. */
async function codeOf(code: string): Promise<string | undefined> {
  return (await list({ country: code })).find((row) => row.code === code)?.callingCode;
}

describe("phone-codes: known codes", () => {
  it.each([
    ["US", "+1"],
    ["CA", "+1"],
    ["GB", "+44"],
    ["IN", "+91"],
    ["RU", "+7"],
    ["KZ", "+7"],
    ["AS", "+1-684"],
    ["AX", "+358-18"],
    ["EH", "+212"],
    ["XK", "+383"],
  ])("%s is %s", async (code, callingCode) => {
    expect(await codeOf(code)).toBe(callingCode);
  });

  it("gives name, alpha-2 code and flag with each code", async () => {
    expect(await list({ country: "GBR" })).toEqual([
      { name: "United Kingdom", code: "GB", callingCode: "+44", flag: "🇬🇧" },
    ]);
  });

  it('"ind" finds India and Indonesia, and only names with a word starting "ind"', async () => {
    const rows = await list({ country: "ind" });
    expect(rows.map((row) => row.name)).toEqual(expect.arrayContaining(["India", "Indonesia"]));
    for (const row of rows) expect(row.name.toLowerCase()).toMatch(/(^|[^a-z])ind/);
  });

  it("matches names at word starts, so a code is not drowned by names containing its letters", async () => {
    expect((await list({ country: "us" })).map((row) => row.code)).toEqual(["US"]);
    expect((await list({ country: "kingdom" })).map((row) => row.code)).toEqual(["GB"]);
    expect((await list({ country: "stan" })).map((row) => row.code)).toEqual([]);
  });

  it("ignores case and accents in names", async () => {
    expect((await list({ country: "ALAND" })).map((row) => row.code)).toEqual(["AX"]);
    expect((await list({ country: "curacao" })).map((row) => row.code)).toEqual(["CW"]);
  });

  it("q finds countries by calling code", async () => {
    expect((await list({ q: "+44" })).map((row) => row.code)).toEqual(["GG", "IM", "JE", "GB"]);
    expect((await list({ q: "1-684" })).map((row) => row.code)).toEqual(["AS"]);
  });

  it("country and q must both match", async () => {
    expect((await list({ country: "united", q: "+1" })).map((row) => row.code)).toEqual(["US", "VI"]);
  });

  it("lists every country with a calling code once, sorted by name", async () => {
    const rows = await list({});
    const withCode = countries.filter((country) => country.idd.root !== "");
    expect(rows).toHaveLength(withCode.length);
    expect(new Set(rows.map((row) => row.code)).size).toBe(rows.length);
    const names = rows.map((row) => row.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, "en")));
    expect(rows.find((row) => row.code === "AQ")).toBeUndefined();
  });

  it("answers an empty list, not an error, when nothing matches", async () => {
    expect(await list({ country: "atlantis" })).toEqual([]);
  });

  it("serves the older `GET /api/country/phone-codes` with the same query", () => {
    const legacy = definition.legacyRoutes?.find((route) => route.path === "/api/country/phone-codes");
    expect(legacy).toMatchObject({ method: "GET", operationId: listPhoneCodes.id });
    expect(legacy?.adapt({ country: "in" })).toEqual({ country: "in" });
  });
});

describe("phone-codes: calling-code arithmetic", () => {
  it.each([
    ["1684", 1],
    ["7", 1],
    ["20", 2],
    ["212", 3],
    ["44", 2],
    ["420", 3],
    ["35818", 3],
    ["86", 2],
    ["880", 3],
    ["971", 3],
    ["91", 2],
  ])("the country code of %s has %d digit(s)", (digits, length) => {
    expect(countryCodeLength(digits)).toBe(length);
  });

  it("shows the first country code when prefixes span two (Vatican City)", () => {
    expect(describeCallingCode({ root: "+3", suffixes: ["906698", "79"] })).toEqual({
      display: "+39",
      matches: ["39", "379", "3906698"],
    });
  });

  it("has no code without a root", () => {
    expect(describeCallingCode({ root: "", suffixes: [] })).toBeNull();
  });
});

describe("phone-codes: properties", () => {
  it("never throws on arbitrary or hostile input", async () => {
    const search = fc.oneof(fc.string(), fc.constantFrom("in", "IND", "+1", "1-684", "ÅLAND", "+", "--", " "));
    await expectNeverThrows(listPhoneCodes, { country: search, q: search });
  });
});

describe("phone-codes: documentation", () => {
  it("the example output is what the example input produces", async () => {
    await expectExampleIsReal(listPhoneCodes);
  });
});
