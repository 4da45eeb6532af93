import { env, SELF } from "cloudflare:test";
import StateData from "country-state-city/lib/state";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { callHosted, createAccountWithKey } from "../../../tests/factories";
import {
  callOperation,
  expectExampleIsReal,
  expectJson,
  expectNeverThrows,
  expectProblem,
  findOperation,
} from "../_data/operation-test-helpers";
import type { HandlerResult } from "../definition";
import { COUNTRIES_WITHOUT_CITY_DATA } from "./cities";
import { definition } from "./index";
import type { StateCities } from "./schema";

const listStateCities = findOperation(definition, "listStateCities");

interface FixtureCity {
  country: string;
  state: string;
  name: string;
  latitude: number;
  longitude: number;
}

/**
 * Real rows, copied from country-state-city's lib/assets/city.json with its spelling and
 * coordinates (to 5 decimals, as it has them). Karnataka's five
 * "Be…" cities are the documented example; Cameroon's South region has accented initials that
 * a byte-order sort would put last; Great Britain has cities under England only.
 */
const FIXTURE: FixtureCity[] = [
  { country: "IN", state: "KA", name: "Mysuru", latitude: 12.23, longitude: 76.42 },
  { country: "IN", state: "KA", name: "Bengaluru", latitude: 12.97194, longitude: 77.59369 },
  { country: "IN", state: "KA", name: "Hubballi", latitude: 15.34776, longitude: 75.13378 },
  { country: "IN", state: "KA", name: "Bangalore Urban", latitude: 13, longitude: 77.58333 },
  { country: "IN", state: "KA", name: "Belagavi", latitude: 16.33333, longitude: 74.75 },
  { country: "IN", state: "KA", name: "Mangaluru", latitude: 12.91723, longitude: 74.85603 },
  { country: "IN", state: "KA", name: "Belluru", latitude: 12.9814, longitude: 76.73308 },
  { country: "IN", state: "KA", name: "Bangalore Rural", latitude: 13.22567, longitude: 77.57501 },
  { country: "IN", state: "KA", name: "Beltangadi", latitude: 13.98333, longitude: 75.3 },
  { country: "IN", state: "KA", name: "Afzalpur", latitude: 17.19986, longitude: 76.36018 },
  { country: "IN", state: "KA", name: "Belur", latitude: 13.16558, longitude: 75.86519 },
  { country: "CM", state: "SU", name: "Sangmélima", latitude: 2.93333, longitude: 11.98333 },
  { country: "CM", state: "SU", name: "Ébolowa", latitude: 2.9, longitude: 11.15 },
  { country: "CM", state: "SU", name: "Kribi", latitude: 2.93725, longitude: 9.90765 },
  { country: "CM", state: "SU", name: "Akom II", latitude: 2.78333, longitude: 10.56667 },
  { country: "CM", state: "SU", name: "Mvangué", latitude: 2.96667, longitude: 11.51667 },
  { country: "GB", state: "ENG", name: "London", latitude: 51.50853, longitude: -0.12574 },
];

beforeAll(async () => {
  // Storage is shared by the tests of this file; ON CONFLICT keeps a repeated setup harmless.
  await env.DB.batch(
    FIXTURE.map((city) =>
      env.DB.prepare(
        `INSERT INTO cities (country_code, state_code, name, latitude, longitude) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT DO NOTHING`,
      ).bind(city.country, city.state, city.name, city.latitude, city.longitude),
    ),
  );
});

async function cities(raw: Record<string, unknown>): Promise<StateCities> {
  return expectJson(await callOperation(listStateCities, raw)) as StateCities;
}

async function names(raw: Record<string, unknown>): Promise<string[]> {
  return (await cities(raw)).data.map((city) => city.name);
}

function expectEngineUnavailable(result: HandlerResult): string {
  if (result.kind !== "problem") throw new Error(`expected engine-unavailable, got ${JSON.stringify(result)}`);
  expect(result.type).toBe("engine-unavailable");
  return result.detail;
}

describe("location: countries without city data", () => {
  // The package's city list (8 MB) cannot be loaded into the test runtime; scripts/seed-cities.ts
  // checks this list against it on every seed. Here: each entry is a country with states.
  it.each([...COUNTRIES_WITHOUT_CITY_DATA])("%s has states, so its cities call reaches the table", (code) => {
    expect(StateData.getStatesOfCountry(code).length).toBeGreaterThan(0);
  });
});

describe("location: cities of a state", () => {
  it("answers Karnataka's cities with their coordinates, sorted by name", async () => {
    const karnataka = await cities({ code: "IN", state: "KA" });
    expect(karnataka.country).toEqual({ name: "India", cca2: "IN", cca3: "IND" });
    expect(karnataka.state).toEqual({ code: "KA", name: "Karnataka" });
    expect(karnataka.data.map((city) => city.name)).toEqual([
      "Afzalpur",
      "Bangalore Rural",
      "Bangalore Urban",
      "Belagavi",
      "Belluru",
      "Beltangadi",
      "Belur",
      "Bengaluru",
      "Hubballi",
      "Mangaluru",
      "Mysuru",
    ]);
    expect(karnataka.data).toContainEqual({ name: "Bengaluru", latitude: 12.97194, longitude: 77.59369 });
  });

  it("takes the alpha-3 country code and the state code in any case, answering the dataset's code", async () => {
    const answer = await cities({ code: "ind", state: " ka " });
    expect(answer.state).toEqual({ code: "KA", name: "Karnataka" });
    expect(answer).toEqual(await cities({ code: "IN", state: "KA" }));
  });

  it("sorts accented names where a reader looks for them, not after Z", async () => {
    expect(await names({ code: "CM", state: "SU" })).toEqual(["Akom II", "Ébolowa", "Kribi", "Mvangué", "Sangmélima"]);
  });

  it("filters by the start of the name, ignoring case and accents", async () => {
    expect(await names({ code: "IN", state: "KA", q: "beng" })).toEqual(["Bengaluru"]);
    expect(await names({ code: "IN", state: "KA", q: "BANGALORE " })).toEqual(["Bangalore Rural", "Bangalore Urban"]);
    expect(await names({ code: "IN", state: "KA", q: "bel" })).toEqual(["Belagavi", "Belluru", "Beltangadi", "Belur"]);
    expect(await names({ code: "CM", state: "SU", q: "eb" })).toEqual(["Ébolowa"]);
    expect(await names({ code: "CM", state: "SU", q: "SANGMEL" })).toEqual(["Sangmélima"]);
  });

  it("matches a prefix only, and answers an empty list when nothing starts so", async () => {
    expect(await names({ code: "IN", state: "KA", q: "luru" })).toEqual([]);
    expect(await names({ code: "IN", state: "KA", q: "zz" })).toEqual([]);
  });

  it("caps the list at limit, keeping the first by name, with limit as a query string gives it", async () => {
    expect(await names({ code: "IN", state: "KA", limit: 2 })).toEqual(["Afzalpur", "Bangalore Rural"]);
    expect(await names({ code: "IN", state: "KA", q: "b", limit: "3" })).toEqual([
      "Bangalore Rural",
      "Bangalore Urban",
      "Belagavi",
    ]);
    expect(await names({ code: "IN", state: "KA", limit: 1000 })).toHaveLength(11);
  });

  it.each([
    { code: "IN", state: "KA", limit: 0 },
    { code: "IN", state: "KA", limit: 1001 },
    { code: "IN", state: "KA", limit: 2.5 },
    { code: "IN", state: "KA", limit: "ten" },
    { code: "IN", state: "" },
    { code: "IN", state: "K A" },
    { code: "IN", state: "KA'--" },
    { code: "INDIA", state: "KA" },
    { code: "IN", state: "KA", q: "x".repeat(81) },
  ])("the schema refuses %j", (raw) => {
    expect(listStateCities.input.safeParse(raw).success).toBe(false);
  });

  it("answers an empty list for a state the dataset gives no cities, once the country's cities are loaded", async () => {
    // Aberdeenshire is a GB subdivision without cities of its own (they sit under England, Scotland…).
    const aberdeenshire = await cities({ code: "GB", state: "ABD" });
    expect(aberdeenshire.state).toEqual({ code: "ABD", name: "Aberdeenshire" });
    expect(aberdeenshire.data).toEqual([]);
  });

  it("answers an empty list for Monaco, whose quarters the dataset lists without any city", async () => {
    expect(await cities({ code: "MC", state: "CO" })).toEqual({
      country: { name: "Monaco", cca2: "MC", cca3: "MCO" },
      state: { code: "CO", name: "La Condamine" },
      data: [],
    });
  });
});

describe("location: cities, errors", () => {
  it.each(["ZZ", "ZZZ"])("answers not-found for the unknown country %s", async (code) => {
    expect(expectProblem(await callOperation(listStateCities, { code, state: "KA" }), "not-found")).toContain(code);
  });

  it.each(["ZZ", "NSW", "ka-1"])("answers not-found for %s, which is no state of India", async (state) => {
    const detail = expectProblem(await callOperation(listStateCities, { code: "IN", state }), "not-found");
    expect(detail).toContain(state.toUpperCase());
    expect(detail).toContain("India");
  });

  it("says the data is not loaded, instead of answering no cities, for a country without rows", async () => {
    const detail = expectEngineUnavailable(await callOperation(listStateCities, { code: "AU", state: "NSW" }));
    expect(detail).toMatch(/^City data is not loaded here: run npm run seed:cities/);
    // A filter that would match nothing must not turn the missing data into an empty answer.
    expectEngineUnavailable(await callOperation(listStateCities, { code: "AUS", state: "nsw", q: "syd" }));
  });
});

describe("location: cities through the gateway", () => {
  it("serves the path with its parameters and maps a missing seed to 503 problem+json", async () => {
    const { key } = await createAccountWithKey(env.DB, { planId: "premium" });
    const found = await callHosted(SELF, "GET", "/api/v1/location/countries/IND/states/ka/cities?q=Beng", { key });
    expect(found.status).toBe(200);
    expect((await found.json<StateCities>()).data).toEqual([
      { name: "Bengaluru", latitude: 12.97194, longitude: 77.59369 },
    ]);

    const unloaded = await callHosted(SELF, "GET", "/api/v1/location/countries/AU/states/NSW/cities", { key });
    expect(unloaded.status).toBe(503);
    expect(unloaded.headers.get("content-type")).toBe("application/problem+json");
    expect(await unloaded.json()).toMatchObject({ type: "https://portico.dev/problems/engine-unavailable" });

    const refused = await callHosted(SELF, "GET", "/api/v1/location/countries/IN/states/KA/cities?limit=0", { key });
    expect(refused.status).toBe(422);
    await refused.arrayBuffer();
  });
});

describe("location: cities, properties and documentation", () => {
  const text = fc.oneof(fc.string(), fc.constantFrom("", " ", "be", "É", "%", "_", "'; DROP TABLE cities; --"));

  it("listStateCities never throws on arbitrary or hostile input", async () => {
    await expectNeverThrows(listStateCities, {
      code: fc.oneof(text, fc.constantFrom("IN", "ind", "CM", "GB", "AU", "MC", "ZZ")),
      state: fc.oneof(
        text,
        fc.constantFrom("KA", "su", "ENG", "ABD", "NSW", "CO", "UM-81"),
        fc.stringMatching(/^[A-Z0-9]{1,3}$/),
      ),
      q: text,
      limit: fc.oneof(fc.integer({ min: -5, max: 1200 }), fc.constantFrom("1", "1000", "NaN", "1e3")),
    });
  });

  it("the example output is what the example input produces", async () => {
    await expectExampleIsReal(listStateCities);
  });
});
