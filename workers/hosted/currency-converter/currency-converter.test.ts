/**
 * Currency Converter over the fake ECB feed's days (workers/providers/ecb/fixture.ts): the
 * handlers directly with the test's D1 and KV, and the whole gateway through the Worker. The
 * conversions are checked against an exact computation done here in rationals (BigInt) from
 * the ECB's decimal quotes, not against the code under test.
 */
import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { readConfig } from "~workers/config";
import { gatewayNotices } from "~workers/gateway/meter-notices";
import { serveBenchRoute } from "~workers/gateway/bench-route";
import { createOperationContext } from "~workers/gateway/operation-context";
import { createFakeEcbFetch, type FakeEcbAnswer } from "~workers/providers/ecb/fake";
import { FAKE_ECB_BASE_URL, httpEcbFeed, type DayRates } from "~workers/providers/ecb/feed";
import { ECB_2024_10_10, fixtureDays, HRK_LAST_DAY } from "~workers/providers/ecb/fixture";
import { memorySnapshot } from "~workers/providers/ecb/snapshot";
import { d1RateStore, type RateStore } from "~workers/providers/ecb/store";
import { revokeApiKey } from "~workers/platform/api-keys";
import { FREE_PLAN_FREEMIUM_CAP } from "~workers/platform/plans";
import { callHosted, createAccountWithKey, expectProblem, spendFreemiumCalls } from "../../../tests/factories";
import { testHostedServices } from "../../../tests/fakes/services";
import { createTestContext } from "../../../tests/hosted-context";
import { callOperation, expectExampleIsReal, expectJson, findOperation } from "../_data/operation-test-helpers";
import type { HandlerResult, OperationContext } from "../definition";
import { definition } from ".";
import type { ExchangeRates } from "../capabilities";

const latest = findOperation(definition, "getLatestRates");
const currencies = findOperation(definition, "listCurrencies");
const dated = findOperation(definition, "getRatesOn");
const convert = findOperation(definition, "convertCurrency");

const fixture = fixtureDays(Date.now());
const newest = fixture.at(-1) as DayRates;

/** A context whose rates are `rates` (the test's D1 and fake feed unless given). */
function contextWith(rates?: ExchangeRates): OperationContext {
  if (!rates) return createTestContext();
  const services = { ...testHostedServices(), rates };
  return createOperationContext({
    request: new Request("https://portico.test/api/v1/currency-converter"),
    requestId: crypto.randomUUID(),
    account: { userId: "usr_test_fx", keyId: "key_test", planId: "free" },
    services,
    publicHosts: [],
    signal: new AbortController().signal,
    waitUntil: () => undefined,
  });
}

function problemOf(result: HandlerResult) {
  if (result.kind !== "problem") throw new Error(`expected a problem, got ${JSON.stringify(result)}`);
  return result;
}

type Rates = {
  amount: number;
  base: string;
  date: string;
  rates: Record<string, number>;
  stale: boolean;
  source: string;
};
type Range = { start_date: string; end_date: string; rates: Record<string, Record<string, number>> };

beforeAll(async () => {
  // The store fills itself from the fake feed when empty; saving the fixture makes every day present.
  await d1RateStore(env.DB, env.CACHE).save(fixture);
});

// ---- An exact reference: rationals over the ECB's decimal quotes ----

/** "1.0932" → [10932n, 10000n]. */
function decimal(text: string): [bigint, bigint] {
  const [whole = "0", fraction = ""] = text.split(".");
  return [BigInt(whole + fraction), 10n ** BigInt(fraction.length)];
}

/** The quote as the ECB wrote it: a double prints back as the shortest decimal that reads as it. */
const quote = (day: DayRates, code: string) => (code === "EUR" ? "1" : String(day.rates[code]));

/** amount × to ÷ base exactly, rounded half-up to the decimals the documented rule gives; `tie` when within 1e-9 of half a unit. */
function exactConversion(amount: string, base: string, to: string, day: DayRates): { value: number; tie: boolean } {
  const [an, ad] = decimal(amount);
  const [tn, td] = decimal(quote(day, to));
  const [bn, bd] = decimal(quote(day, base));
  const p = an * tn * bd;
  const q = ad * td * bn;
  const approx = Number((p * 10n ** 12n) / q) / 1e12;
  // The documented rule: Frankfurter's decimals, or seven significant digits where that keeps more.
  const frankfurter = approx > 5000 ? 0 : approx > 80 ? 2 : approx > 20 ? 3 : approx > 1 ? 4 : 5;
  const decimals = Math.max(frankfurter, 6 - Math.floor(Math.log10(approx)));
  const scale = 10n ** BigInt(decimals);
  const twice = 2n * p * scale;
  const rounded = (twice + q) / (2n * q);
  const remainder = twice % (2n * q);
  const distance = Number(remainder > q ? remainder - q : q - remainder) / Number(2n * q);
  const text = rounded.toString().padStart(decimals + 1, "0");
  const value = Number(decimals ? `${text.slice(0, -decimals)}.${text.slice(-decimals)}` : text);
  return { value, tie: distance < 1e-9 };
}

describe("conversions", () => {
  it("answer the documented examples exactly (the ECB's rates of 2024-10-10)", async () => {
    await expectExampleIsReal(dated);
    // The POST example leaves the date out (the newest day answers); its output is 2024-10-10's.
    const posted = expectJson(await callOperation(convert, { ...(convert.example as object), date: "2024-10-10" }));
    expect(convert.output.kind === "json" && convert.output.example).toEqual(posted);
    // /latest's example output is the answer of that day too.
    const latestThen = expectJson(await callOperation(dated, { ...(latest.example as object), date: "2024-10-10" }));
    expect(latest.output.kind === "json" && latest.output.example).toEqual(latestThen);
  });

  it("match an exact computation from the ECB's quotes, rounded only at the output", async () => {
    const codes = ["EUR", ...Object.keys(ECB_2024_10_10)];
    const day = { date: "2024-10-10", rates: { ...ECB_2024_10_10 } };
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...codes),
        fc.subarray(codes, { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 10 ** 11 }),
        fc.integer({ min: 0, max: 4 }),
        async (base, targets, units, shift) => {
          const amount = (units / 10 ** shift).toString();
          const body = expectJson(
            await callOperation(dated, { date: "2024-10-10", from: base, to: targets.join(","), amount }),
          ) as Rates;
          for (const to of targets) {
            const expected = exactConversion(amount, base, to, day);
            if (expected.tie)
              expect(Math.abs((body.rates[to] ?? 0) - expected.value)).toBeLessThan(expected.value * 1e-6 + 1);
            else expect(body.rates[to], `${amount} ${base}→${to}`).toBe(expected.value);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it("gives back every ECB quote as published, and seven significant digits below 1", async () => {
    // Frankfurter's rule alone would print 91.8, 17166 and 0.00006 here.
    const euro = expectJson(await callOperation(dated, { date: "2024-10-10", to: "INR,IDR,GBP" })) as Rates;
    expect(euro.rates).toEqual({ INR: 91.7985, IDR: 17165.59, GBP: 0.83686 });
    const body = expectJson(await callOperation(dated, { date: "2024-10-10", from: "IDR", to: "EUR" })) as Rates;
    // 1 / 17165.59 = 0.0000582560849…
    expect(body.rates.EUR).toBe(0.00005825608);
    const big = expectJson(
      await callOperation(dated, { date: "2024-10-10", from: "EUR", to: "IDR", amount: "1000" }),
    ) as Rates;
    expect(big.rates.IDR).toBe(17165590);
  });

  it("lists every currency of the day but the base when `to` is absent, as Frankfurter", async () => {
    const body = expectJson(await callOperation(dated, { date: "2024-10-10", base: "USD" })) as Rates;
    expect(Object.keys(body.rates).sort()).toEqual(
      ["EUR", ...Object.keys(ECB_2024_10_10)].filter((c) => c !== "USD").sort(),
    );
    expect(body).toMatchObject({ amount: 1, base: "USD", date: "2024-10-10", source: "ECB", stale: false });
  });

  it("takes Frankfurter's names and lower-case codes, and refuses two different bases", async () => {
    const frankfurter = await callOperation(dated, { date: "2024-10-10", base: "usd", symbols: "gbp" });
    const ours = await callOperation(dated, { date: "2024-10-10", from: "USD", to: "GBP" });
    expect(expectJson(frankfurter)).toEqual(expectJson(ours));
    expect(dated.input.safeParse({ date: "2024-10-10", from: "USD", base: "GBP" }).success).toBe(false);
  });
});

describe("dates", () => {
  it("answers the newest day for /latest, fresh", async () => {
    const body = expectJson(await callOperation(latest, { to: "USD" })) as Rates;
    expect(body).toEqual({
      amount: 1,
      base: "EUR",
      date: newest.date,
      rates: { USD: newest.rates.USD },
      source: "ECB",
      stale: false,
    });
  });

  it.each([
    ["2024-10-12", "2024-10-11", "a Saturday"],
    ["2024-10-13", "2024-10-11", "a Sunday"],
    ["2024-03-29", "2024-03-28", "Good Friday"],
    ["2024-04-01", "2024-03-28", "Easter Monday"],
    ["2023-01-01", "2022-12-30", "New Year's Day"],
  ])("answers %s with the business day before (%s, %s)", async (asked, answered) => {
    const body = expectJson(await callOperation(dated, { date: asked, to: "USD" })) as Rates;
    expect(body.date).toBe(answered);
    expect(body.rates.USD).toBe(fixture.find((day) => day.date === answered)?.rates.USD);
    const posted = expectJson(await callOperation(convert, { from: "EUR", to: "USD", amount: 1, date: asked }));
    expect(posted).toMatchObject({ date: answered, requestedDate: asked });
  });

  it("lists only the business days of a range, starting inside it", async () => {
    const easter = expectJson(await callOperation(dated, { date: "2024-03-27..2024-04-03", to: "USD" })) as Range;
    expect(Object.keys(easter.rates)).toEqual(["2024-03-27", "2024-03-28", "2024-04-02", "2024-04-03"]);
    // Starting on a Saturday: the Monday after, not the Friday before.
    const weekend = expectJson(await callOperation(dated, { date: "2024-10-12..2024-10-16", to: "USD" })) as Range;
    expect(weekend).toMatchObject({ start_date: "2024-10-14", end_date: "2024-10-16" });
    expect(Object.keys(weekend.rates)).toEqual(["2024-10-14", "2024-10-15", "2024-10-16"]);
  });

  it("runs an open range to the newest day", async () => {
    const from = fixture.at(-3)?.date as string;
    const body = expectJson(await callOperation(dated, { date: `${from}..`, from: "USD", to: "EUR" })) as Range;
    expect(body.start_date).toBe(from);
    expect(body.end_date).toBe(newest.date);
    expect(Object.keys(body.rates)).toHaveLength(3);
  });

  it("answers a range of weekend days only with a 404", async () => {
    expect(problemOf(await callOperation(dated, { date: "2024-10-12..2024-10-13" })).type).toBe("not-found");
  });

  it.each([
    ["2023-02-29", "is not a date"],
    ["2024-1-10", "YYYY-MM-DD"],
    ["1998-12-31", "begin on 1999-01-04"],
    ["2099-01-01", "in the future"],
    ["2024-10-18..2024-10-07", "ends (2024-10-07) before it starts"],
    ["2000-01-01..2024-10-10", "at most 3653 days"],
    ["2024-10-10..2024-10-10..2024-10-11", "YYYY-MM-DD"],
    ["latest2", "YYYY-MM-DD"],
  ])("refuses the date %s with a 422 naming the field", async (date, detail) => {
    const problem = problemOf(await callOperation(dated, { date }));
    expect(problem.type).toBe("invalid-input");
    expect(problem.detail).toContain(detail);
    expect(problem.extensions?.errors).toHaveProperty("date");
  });

  it("answers 404 for a day before the first stored", async () => {
    const problem = problemOf(await callOperation(dated, { date: "2005-06-01" }));
    expect(problem.type).toBe("not-found");
    expect(problem.detail).toContain("2005-06-01");
  });
});

describe("currencies", () => {
  it("answers a discontinued currency up to its last day, then refuses it naming that day", async () => {
    const last = expectJson(await callOperation(dated, { date: HRK_LAST_DAY, to: "HRK" })) as Rates;
    expect(last.rates.HRK).toBe(fixture.find((day) => day.date === HRK_LAST_DAY)?.rates.HRK);
    // 2023-01-01 is a holiday: the answer is 2022-12-30's, which still has the kuna.
    expect((expectJson(await callOperation(dated, { date: "2023-01-01", to: "HRK" })) as Rates).date).toBe(
      HRK_LAST_DAY,
    );
    for (const result of [
      await callOperation(dated, { date: "2023-01-02", to: "HRK,USD" }),
      await callOperation(latest, { to: "HRK" }),
      await callOperation(convert, { from: "HRK", to: "EUR", amount: 1, date: "2023-01-03" }),
    ]) {
      const problem = problemOf(result);
      expect(problem.type).toBe("invalid-input");
      expect(problem.detail).toContain(`stopped publishing HRK after ${HRK_LAST_DAY}`);
      expect(problem.extensions).toMatchObject({ currency: "HRK", lastDate: HRK_LAST_DAY });
    }
    // A range across the end answers the days it was published; one wholly after is refused.
    const across = expectJson(await callOperation(dated, { date: "2022-12-28..2023-01-04", to: "HRK" })) as Range;
    expect(across.end_date).toBe(HRK_LAST_DAY);
    expect(
      problemOf(await callOperation(dated, { date: "2023-01-03..2023-01-10", to: "HRK" })).extensions,
    ).toMatchObject({
      lastDate: HRK_LAST_DAY,
    });
  });

  it("refuses unknown codes with a 422 naming the field", async () => {
    const target = problemOf(await callOperation(latest, { to: "USD,XYZ" }));
    expect(target.type).toBe("invalid-input");
    expect(target.extensions?.errors).toEqual({ to: expect.stringContaining("XYZ is not a currency") });
    const base = problemOf(await callOperation(convert, { from: "ABC", to: "EUR", amount: 1 }));
    expect(base.extensions?.errors).toEqual({ from: expect.stringContaining("ABC is not a currency") });
  });

  it("lists the newest day's currencies with English names, and with all=true the discontinued ones", async () => {
    const current = expectJson(await callOperation(currencies, {})) as Record<string, string>;
    expect(Object.keys(current)).toEqual(["EUR", ...Object.keys(newest.rates)].sort());
    expect(current).toMatchObject({ EUR: "Euro", USD: "US Dollar", JPY: "Japanese Yen" });
    expect(current).not.toHaveProperty("HRK");
    const all = expectJson(await callOperation(currencies, { all: "true" })) as Record<string, string>;
    expect(all.HRK).toBe("Croatian Kuna");
  });
});

/**
 * A store in memory (for an empty store and a clock of our own, without touching the shared D1):
 * `initial` as days fetched, over `snapshot` as the bundled days under them.
 */
function memoryStore(initial: readonly DayRates[] = [], snapshot: readonly DayRates[] = []): RateStore {
  const days = new Map(initial.map((day) => [day.date, day]));
  const view = () =>
    memorySnapshot([...new Map([...snapshot, ...days.values()].map((day) => [day.date, day])).values()]);
  return {
    onOrBefore: async (date) => view().onOrBefore(date),
    between: async (start, end, codes) => view().between(start, end, codes),
    spans: async () => view().spans(),
    hasFetchedDays: async () => days.size > 0,
    save: async (saved) => {
      for (const day of saved) days.set(day.date, day);
    },
  };
}

const historyFills: number[] = [];

function ratesOver(store: RateStore, now: number, script: FakeEcbAnswer[] = []): ExchangeRates {
  const feed = httpEcbFeed(createFakeEcbFetch({ script, now: () => now }), FAKE_ECB_BASE_URL, {
    daily: 200,
    "hist-90d": 200,
    hist: 200,
  });
  return {
    store,
    now: () => now,
    fillHistory: async () => {
      historyFills.push(now);
    },
    fillEmpty: async () => {
      const result = await feed.read("hist-90d");
      if (!result.ok) return result;
      await store.save(result.days);
      return null;
    },
  };
}

describe("freshness and the feed", () => {
  it("says stale, with the age, when the fetches have failed for more than one business day", async () => {
    const days = fixtureDays(Date.parse("2026-11-13T18:00:00Z")); // newest: Friday 2026-11-13
    const fresh = contextWith(ratesOver(memoryStore(days), Date.parse("2026-11-16T18:00:00Z")));
    expect(expectJson(await callOperation(latest, { to: "USD" }, fresh))).toMatchObject({
      date: "2026-11-13",
      stale: false,
    });
    const behind = contextWith(ratesOver(memoryStore(days), Date.parse("2026-11-19T18:00:00Z")));
    const body = expectJson(await callOperation(latest, { to: "USD" }, behind));
    expect(body).toMatchObject({ date: "2026-11-13", stale: true, ageBusinessDays: 4 });
    expect(RatesSchemaOf(latest).safeParse(body).success).toBe(true);
  });

  it("fills an empty store from the feed on the first call", async () => {
    const store = memoryStore();
    const now = Date.parse("2026-11-20T18:00:00Z");
    const body = expectJson(await callOperation(latest, { to: "USD" }, contextWith(ratesOver(store, now))));
    expect(body).toMatchObject({ date: "2026-11-20", stale: false });
    expect((await store.spans()).length).toBeGreaterThan(29);
    // The whole history follows in the background, once.
    expect(historyFills.filter((at) => at === now)).toHaveLength(1);
    await callOperation(latest, { to: "USD" }, contextWith(ratesOver(store, now)));
    expect(historyFills.filter((at) => at === now)).toHaveLength(1);
  });

  it.each(["http-500", "http-404", "malformed", "empty", "network-error", "hang"] as const)(
    "answers 502 naming the ECB when the store is empty and the feed fails (%s)",
    async (failure) => {
      for (const [operation, input] of [
        [latest, {}],
        [currencies, {}],
        [dated, { date: "2024-10-10" }],
        [convert, { from: "EUR", to: "USD", amount: 1 }],
      ] as const) {
        const store = memoryStore();
        const context = contextWith(ratesOver(store, Date.now(), [failure]));
        const problem = problemOf(await callOperation(operation, input, context));
        expect(problem.type).toBe("upstream-failed");
        expect(problem.detail).toContain("ECB");
        expect(problem.detail).toContain(FAKE_ECB_BASE_URL);
        expect(problem.extensions).toMatchObject({ upstream: "ECB" });
        expect(await store.spans()).toEqual([]);
      }
    },
  );

  // The ECB's published quotes of 2026-04-13 (eurofxref-hist.csv), as the bundled snapshot holds them.
  const snapshotDay: DayRates = { date: "2026-04-13", rates: { USD: 1.1684, JPY: 186.75, GBP: 0.87058 } };

  it("fills a database holding only the bundled snapshot from the feed on its first call, as an empty one", async () => {
    const now = Date.parse("2026-11-20T18:00:00Z");
    const store = memoryStore([], [snapshotDay]);
    const body = expectJson(await callOperation(latest, { to: "USD" }, contextWith(ratesOver(store, now))));
    expect(body).toMatchObject({ date: "2026-11-20", stale: false });
    // The snapshot's days still answer where nothing fetched covers them.
    const old = expectJson(
      await callOperation(dated, { date: "2026-04-13", to: "GBP" }, contextWith(ratesOver(store, now))),
    );
    expect(old).toMatchObject({ date: "2026-04-13", rates: { GBP: 0.87058 } });
  });

  it("answers the snapshot's days, marked stale, when that first fill fails", async () => {
    const now = Date.parse("2026-11-20T18:00:00Z");
    const store = memoryStore([], [snapshotDay]);
    const rates = ratesOver(store, now, ["http-500"]);
    const body = expectJson(await callOperation(latest, { to: "USD" }, contextWith(rates)));
    expect(body).toMatchObject({ date: "2026-04-13", rates: { USD: 1.1684 }, stale: true });
  });
});

function RatesSchemaOf(operation: typeof latest) {
  if (operation.output.kind !== "json") throw new Error("no JSON output");
  return operation.output.schema;
}

describe("malformed and hostile input (properties)", () => {
  it("answers any date path with rates or a 4xx problem, never a throw", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ maxLength: 40 }),
          fc
            .date({ min: new Date("1990-01-01"), max: new Date("2100-01-01"), noInvalidDate: true })
            .map((d) => d.toISOString().slice(0, 10)),
          fc
            .tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99 }))
            .map(
              ([y, m, d]) =>
                `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`,
            ),
        ),
        async (date) => {
          const parsed = dated.input.safeParse({ date, to: "USD" });
          if (!parsed.success) return;
          const result = await dated.handler(parsed.data, createTestContext());
          if (result.kind === "problem") expect(["invalid-input", "not-found"]).toContain(result.type);
          else expect(result.kind).toBe("json");
        },
      ),
      { numRuns: 80 },
    );
  });

  it("accepts only three-letter codes and positive finite amounts", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 8 }), (code) => {
        const parsed = latest.input.safeParse({ to: code });
        const parts = code
          .split(",")
          .map((part) => part.trim())
          .filter(Boolean);
        expect(parsed.success).toBe(parts.length > 0 && parts.every((part) => /^[A-Za-z]{3}$/.test(part)));
      }),
    );
    for (const amount of [
      "0",
      "-1",
      "1e3",
      "NaN",
      "Infinity",
      "",
      " ",
      "1.2.3",
      "0x10",
      "１２",
      0,
      -5,
      Number.NaN,
      Infinity,
      1e16,
    ]) {
      expect(latest.input.safeParse({ amount }).success, String(amount)).toBe(false);
    }
    for (const amount of ["1", "0.01", "12.5", 3, 999999999999999]) {
      expect(latest.input.safeParse({ amount }).success, String(amount)).toBe(true);
    }
    expect(convert.input.safeParse({ from: "USD", to: "EUR", amount: 1, extra: true }).success).toBe(false);
  });
});

describe("through the gateway", () => {
  it("serves Frankfurter's paths and query under /api/v1/currency-converter", async () => {
    // Premium's calls a second leave room for five calls in a row.
    const { key } = await createAccountWithKey(env.DB, { planId: "premium" });
    const latestResponse = await callHosted(SELF, "GET", "/api/v1/currency-converter/latest?base=USD&symbols=EUR,GBP", {
      key,
    });
    expect(latestResponse.status).toBe(200);
    expect(await latestResponse.json()).toMatchObject({ base: "USD", date: newest.date, source: "ECB" });

    const day = await callHosted(SELF, "GET", "/api/v1/currency-converter/2024-10-10?from=EUR&to=USD&amount=10", {
      key,
    });
    expect(await day.json()).toEqual({
      amount: 10,
      base: "EUR",
      date: "2024-10-10",
      rates: { USD: 10.932 },
      source: "ECB",
      stale: false,
    });

    const range = await callHosted(SELF, "GET", "/api/v1/currency-converter/2024-10-10..2024-10-14?to=USD", { key });
    expect(Object.keys(((await range.json()) as Range).rates)).toEqual(["2024-10-10", "2024-10-11", "2024-10-14"]);

    const list = await callHosted(SELF, "GET", "/api/v1/currency-converter/currencies", { key });
    expect(await list.json()).toHaveProperty("USD", "US Dollar");

    const posted = await callHosted(SELF, "POST", "/api/v1/currency-converter", {
      key,
      body: { from: "EUR", to: "USD,JPY", amount: 2, date: "2024-10-10" },
    });
    expect(await posted.json()).toMatchObject({
      date: "2024-10-10",
      conversions: [
        { to: "USD", rate: 1.0932, amount: 2.1864 },
        { to: "JPY", rate: 162.85, amount: 325.7 },
      ],
    });
  });

  it("refuses a bad code or date with problem+json 422, and a missing key with 401", async () => {
    const { key } = await createAccountWithKey(env.DB, { planId: "premium" });
    await expectProblem(
      await callHosted(SELF, "GET", "/api/v1/currency-converter/latest?to=US", { key }),
      422,
      "invalid-input",
    );
    await expectProblem(
      await callHosted(SELF, "GET", "/api/v1/currency-converter/latest?to=XYZ", { key }),
      422,
      "invalid-input",
    );
    await expectProblem(
      await callHosted(SELF, "GET", "/api/v1/currency-converter/2024-13-01", { key }),
      422,
      "invalid-input",
    );
    await expectProblem(await callHosted(SELF, "GET", "/api/v1/currency-converter/latest"), 401, "missing-api-key");
  });

  it("refuses a revoked key from the next call on, on every operation", async () => {
    const { key, keyId, userId } = await createAccountWithKey(env.DB, { planId: "premium" });
    expect((await callHosted(SELF, "GET", "/api/v1/currency-converter/latest?to=USD", { key })).status).toBe(200);
    expect(await revokeApiKey(env.DB, gatewayNotices(env), userId, keyId)).toBe(true);
    for (const [method, path, body] of [
      ["GET", "/api/v1/currency-converter/latest?to=USD", undefined],
      ["GET", "/api/v1/currency-converter/2024-10-10..2024-10-14?to=USD", undefined],
      ["POST", "/api/v1/currency-converter", { from: "EUR", to: "USD", amount: 1 }],
    ] as const) {
      await expectProblem(await callHosted(SELF, method, path, { key, body }), 403, "revoked-api-key");
    }
  });

  it("is freemium: a Free account's 51st freemium call of the month is refused and not counted", async () => {
    const { key, userId } = await createAccountWithKey(env.DB, { planId: "free" });
    await spendFreemiumCalls(userId, FREE_PLAN_FREEMIUM_CAP - 1);
    const fiftieth = await callHosted(SELF, "GET", "/api/v1/currency-converter/latest?to=USD", { key });
    expect(fiftieth.status).toBe(200);
    const refused = await expectProblem(
      await callHosted(SELF, "GET", "/api/v1/currency-converter/latest?to=USD", { key }),
      429,
      "monthly-quota-exceeded",
    );
    expect(refused.limit).toBe("freemium");
    // The Premium plan has no freemium cap.
    const premium = await createAccountWithKey(env.DB, { planId: "premium" });
    expect(
      (await callHosted(SELF, "GET", "/api/v1/currency-converter/latest?to=USD", { key: premium.key })).status,
    ).toBe(200);
  });
});

describe("docs", () => {
  it("has a docs page comparing it with Frankfurter, and a live demo", async () => {
    const html = await (await SELF.fetch("https://portico.test/docs/api/currency-converter")).text();
    expect(html).toContain("/api/v1/currency-converter/latest");
    expect(html).toContain("/api/v1/currency-converter/:date");
    expect(html).toContain('<a href="https://frankfurter.dev" rel="noreferrer" class="underline">Frankfurter</a>');
    expect(html).toContain("stopped publishing");
    const demo = await SELF.fetch("https://portico.test/currency-converter/live-demo");
    expect(demo.status).toBe(200);
    await demo.arrayBuffer();
  });
});

describe("docs text", () => {
  it("tells a Frankfurter client that it must send x-api-key as well as change the base URL", () => {
    const text = definition.operations.map((operation) => operation.description).join(" ");
    expect(text).not.toContain("changing the base URL is enough");
    expect(text).toMatch(/base URL and send(?:ing)? (?:its|your|the) key in `x-api-key`/);
  });

  it("says on the dated operation that a range leaves a discontinued currency out after its last day", () => {
    expect(dated.description).toContain("left out of the days after its last");
  });
});

describe("the bench's bare route", () => {
  it("serves a GET operation at a sub-path (/latest) without the gateway, for `npm run bench`", async () => {
    const config = { ...readConfig(env), BENCH_ROUTES: "on" as const };
    const ctx = createExecutionContext();
    const response = await serveBenchRoute(
      new Request("https://portico.test/__bench/bare/currency-converter/latest?to=USD"),
      env,
      ctx,
      config,
    );
    expect(response?.status).toBe(200);
    expect(await response?.json()).toMatchObject({ base: "EUR", date: newest.date, rates: { USD: newest.rates.USD } });
    // The API has no GET at its own path; a path with parameters is not served either.
    for (const path of ["currency-converter", "currency-converter/2024-10-10", "currency-converter/:date"]) {
      const other = await serveBenchRoute(new Request(`https://portico.test/__bench/bare/${path}`), env, ctx, config);
      expect(other?.status, path).toBe(404);
    }
    await waitOnExecutionContext(ctx);
  });
});
