import { afterEach, describe, expect, it, vi } from "vitest";
// The references, read here apart from the module under test: CLDR's supplemental currency
// data and world-countries for the names and symbols it keeps. The runtime takes its currencies
// from the same CLDR file by the same rule, so comparing with `cldrTender` below checks the
// wiring (every country, the date, the order, the look-up), not the data: the independent check
// is the ISO 4217 facts written out by hand in the first test.
import currencyData from "cldr-core/supplemental/currencyData.json";
import dataset from "world-countries/countries.json";
import { callOperation, expectJson, findOperation } from "../_data/operation-test-helpers";
import { definition } from "./index";
import type { CountryRecord } from "./schema";

const listCountries = findOperation(definition, "listCountries");

async function countries(raw: Record<string, unknown>): Promise<Partial<CountryRecord>[]> {
  return (expectJson(await callOperation(listCountries, raw)) as { data: Partial<CountryRecord>[] }).data;
}

async function currencyCodes(cca2: string): Promise<string[]> {
  const [country] = await countries({ code: cca2, fields: "currencies" });
  return (country?.currencies ?? []).map((currency) => currency.code);
}

interface CldrTenure {
  _from?: string;
  _to?: string;
  _tender?: string;
}

const regions = (
  currencyData as unknown as {
    supplemental: { currencyData: { region: Record<string, Record<string, CldrTenure>[]> } };
  }
).supplemental.currencyData.region;

const worldCountries = dataset as unknown as {
  cca2: string;
  cca3: string;
  currencies: Record<string, { name: string; symbol: string }>;
}[];

/** CLDR's legal tender of a region on a day (YYYY-MM-DD), in CLDR's order, written out independently. */
function cldrTender(cca2: string, day: string): string[] {
  const codes: string[] = [];
  for (const entry of regions[cca2] ?? []) {
    for (const [code, tenure] of Object.entries(entry)) {
      if (tenure._tender === "false") continue;
      if (tenure._from !== undefined && tenure._from > day) continue;
      if (tenure._to !== undefined && tenure._to < day) continue;
      if (!codes.includes(code)) codes.push(code);
    }
  }
  return codes;
}

const today = (): string => new Date().toISOString().slice(0, 10);

afterEach(() => {
  vi.useRealTimers();
});

describe("location: currencies are the legal tender on the request's date", () => {
  // The issue's facts (ISO 4217 amendments and the territories' own currencies), written out
  // here rather than read from CLDR, so a wrong or stale CLDR would fail too.
  it.each([
    ["BG", ["EUR"]], // Bulgaria joined the euro on 2026-01-01; the lev stopped being legal tender on 2026-01-31
    ["CW", ["XCG"]], // Curaçao: Caribbean guilder from 2025-03-31, ANG withdrawn 2025-06-30
    ["SX", ["XCG"]], // Sint Maarten, likewise
    ["SL", ["SLE"]], // Sierra Leone's redenominated leone; SLL ended 2023-12-31
    ["GS", ["GBP"]], // South Georgia and the South Sandwich Islands
    ["FM", ["USD"]], // Micronesia
    ["BV", ["NOK"]], // Bouvet Island
    ["HM", ["AUD"]], // Heard Island and McDonald Islands
  ])("%s uses %j", async (cca2, expected) => {
    // A fixed day, so the facts hold whenever the test runs; the next test checks today.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-23T12:00:00Z"));
    expect(await currencyCodes(cca2)).toEqual(expected);
  });

  // Wiring, not data: the runtime reads the same CLDR file by the same rule.
  it("answers CLDR's legal tender for every country, as the runtime's own reading of the same file would (wiring)", async () => {
    const day = today();
    const all = await countries({ fields: "cca2,currencies" });
    expect(all).toHaveLength(worldCountries.length);
    for (const country of all) {
      const cca2 = country.cca2 ?? "";
      expect(
        (country.currencies ?? []).map((currency) => currency.code),
        cca2,
      ).toEqual(cldrTender(cca2, day));
    }
  });

  it("keeps world-countries' name and symbol where it has the code, and names every other currency", async () => {
    const all = await countries({ fields: "cca2,currencies" });
    let kept = 0;
    for (const country of all) {
      const own = worldCountries.find((candidate) => candidate.cca2 === country.cca2)?.currencies ?? {};
      for (const currency of country.currencies ?? []) {
        const theirs = own[currency.code];
        if (theirs) {
          kept++;
          expect(currency, `${country.cca2} ${currency.code}`).toEqual({ code: currency.code, ...theirs });
        } else {
          expect(currency.name, `${country.cca2} ${currency.code}`).not.toBe(currency.code);
          expect(currency.name.length).toBeGreaterThan(3);
          expect(currency.symbol.length).toBeGreaterThan(0);
        }
      }
    }
    expect(kept).toBeGreaterThan(200);
    const [bulgaria] = await countries({ code: "BG", fields: "currencies" });
    expect(bulgaria?.currencies).toEqual([{ code: "EUR", name: "Euro", symbol: "€" }]);
    const [curacao] = await countries({ code: "CW", fields: "currencies" });
    expect(curacao?.currencies?.[0]?.name).toMatch(/^Caribbean guilder$/i);
  });

  it("follows the date: Curaçao's two guilders in 2025, Bulgaria's lev before 2026, both in January 2026's dual circulation, the euro after", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2025-05-01T12:00:00Z"));
    expect(await currencyCodes("CW")).toEqual(["XCG", "ANG"]);
    vi.setSystemTime(new Date("2025-12-31T12:00:00Z"));
    expect(await currencyCodes("BG")).toEqual(["BGN"]);
    expect(await currencyCodes("CW")).toEqual(["XCG"]);
    vi.setSystemTime(new Date("2026-01-15T12:00:00Z"));
    expect(await currencyCodes("BG")).toEqual(["EUR", "BGN"]);
    vi.setSystemTime(new Date("2026-02-01T00:00:00Z"));
    expect(await currencyCodes("BG")).toEqual(["EUR"]);
  });
});

describe("location: the currency look-up follows the same data", () => {
  // Wiring too: the same CLDR file by the same rule; the facts are checked above and below.
  it("answers exactly the countries where CLDR makes each currency legal tender today (wiring)", async () => {
    const day = today();
    const codes = [...new Set(worldCountries.flatMap((country) => cldrTender(country.cca2, day)))];
    expect(codes.length).toBeGreaterThan(100);
    for (const code of codes) {
      const expected = worldCountries
        .filter((country) => cldrTender(country.cca2, day).includes(code))
        .map((country) => country.cca3)
        .sort();
      const found = (await countries({ currency: code.toLowerCase(), fields: "cca3" }))
        .map((country) => country.cca3)
        .sort();
      expect(found, code).toEqual(expected);
    }
    expect((await countries({ currency: "ANG", fields: "cca3" })).map((country) => country.cca3)).toEqual([]);
    expect((await countries({ currency: "XCG", fields: "cca3" })).map((country) => country.cca3)).toEqual([
      "CUW",
      "SXM",
    ]);
  });

  it("finds the new currencies by their English name too", async () => {
    expect((await countries({ currency: "caribbean guilder", fields: "cca2" })).map((country) => country.cca2)).toEqual(
      ["CW", "SX"],
    );
    const euro = (await countries({ currency: "euro", fields: "cca2" })).map((country) => country.cca2);
    expect(euro).toContain("BG");
  });
});
