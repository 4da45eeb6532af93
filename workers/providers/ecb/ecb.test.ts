/**
 * The ECB provider: the feed's XML as the ECB writes it, the TARGET calendar, the fake's
 * failures as the HTTP client sees them, the store over the test's D1 and KV with the snapshot
 * under it, and the cron's choice of file, retries and failures. Every day written to D1 here
 * is a fixture day (./fixture.ts), the same the fake serves the API's tests.
 */
import { createScheduledController, env } from "cloudflare:test";
import worker from "~workers/app";
import { describe, expect, it } from "vitest";
import {
  businessDaysAfter,
  dateOfDay,
  dayNumber,
  easterSunday,
  freshness,
  isTargetBusinessDay,
  latestDueDay,
} from "./calendar";
import { createFakeEcbFetch, daysOfFile, ecbXml, type FakeEcbAnswer } from "./fake";
import { FAKE_ECB_BASE_URL, httpEcbFeed, parseEcbXml, type DayRates } from "./feed";
import { ECB_2024_10_10, fixtureDays, HRK_LAST_DAY } from "./fixture";
import { ECB_CRONS } from "./job";
import { feedNeeded, HISTORY_KEY, refreshRates } from "./refresh";
import { memorySnapshot, SnapshotFileSchema, snapshotDays, snapshotFileOf, snapshotStore } from "./snapshot";
import bundled from "./snapshot.json";
import { d1RateStore, LATEST_KEY, type RateStore } from "./store";

const utc = (iso: string) => Date.parse(iso);

/** Two days as the ECB's 90-day file has them: newest first, single quotes, tabs. */
const ECB_SAMPLE = `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
	<gesmes:subject>Reference rates</gesmes:subject>
	<gesmes:Sender>
		<gesmes:name>European Central Bank</gesmes:name>
	</gesmes:Sender>
	<Cube>
		<Cube time='2024-10-11'>
			<Cube currency='USD' rate='1.0937'/>
			<Cube currency='JPY' rate='163.2'/>
		</Cube>
		<Cube time='2024-10-10'>
			<Cube currency='USD' rate='1.0932'/>
			<Cube currency='JPY' rate='162.85'/>
			<Cube currency='IDR' rate='17165.59'/>
		</Cube>
	</Cube>
</gesmes:Envelope>`;

describe("the ECB's XML", () => {
  it("reads the days of a feed with single-quoted attributes, oldest first", () => {
    const parsed = parseEcbXml(ECB_SAMPLE);
    expect(parsed).toEqual({
      ok: true,
      days: [
        { date: "2024-10-10", rates: { USD: 1.0932, JPY: 162.85, IDR: 17165.59 } },
        { date: "2024-10-11", rates: { USD: 1.0937, JPY: 163.2 } },
      ],
    });
  });

  it("reads double quotes as well, as XML allows", () => {
    const parsed = parseEcbXml(ECB_SAMPLE.replaceAll("'", '"'));
    expect(parsed.ok && parsed.days.map((day) => day.date)).toEqual(["2024-10-10", "2024-10-11"]);
  });

  it("reads back what the fake writes, for any fixture file", () => {
    const days = fixtureDays(utc("2026-11-20T18:00:00Z"));
    for (const kind of ["daily", "hist-90d", "hist"] as const) {
      const parsed = parseEcbXml(ecbXml(daysOfFile(days, kind)));
      expect(parsed).toEqual({ ok: true, days: daysOfFile(days, kind) });
    }
    expect(daysOfFile(days, "daily")).toEqual([days.at(-1)]);
  });

  it.each([
    ["an HTML error page", "<html><body>Service unavailable</body></html>", "no gesmes:Envelope"],
    ["an envelope with no day", ecbXml([]), "no day"],
    ["an impossible date", ECB_SAMPLE.replace("2024-10-11", "2024-02-30"), 'dated "2024-02-30"'],
    ["a day given twice", ECB_SAMPLE.replace("2024-10-11", "2024-10-10"), "appears twice"],
    ["a rate that is not a number", ECB_SAMPLE.replace("1.0937", "N/A"), `USD's rate is "N/A"`],
    ["a zero rate", ECB_SAMPLE.replace("1.0937", "0"), `USD's rate is "0"`],
    ["a lower-case code", ECB_SAMPLE.replace("'JPY' rate='163.2'", "'jpy' rate='163.2'"), 'currency "jpy"'],
    ["the euro quoted against itself", ECB_SAMPLE.replace("'JPY' rate='163.2'", "'EUR' rate='1'"), 'currency "EUR"'],
    [
      "a day with no rates",
      ECB_SAMPLE.replace(/<Cube currency='(USD|JPY)' rate='1(63\.2|\.0937)'\/>/g, ""),
      "2024-10-11 has no rates",
    ],
  ])("refuses %s", (_, xml, detail) => {
    const parsed = parseEcbXml(xml);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.reason).toBe("malformed");
    expect(!parsed.ok && parsed.detail).toContain(detail);
  });
});

describe("the TARGET calendar", () => {
  it("dates Easter as the Gregorian computus does", () => {
    // Known Easter Sundays: 2019-04-21, 2024-03-31, 2025-04-20, 2038-04-25 (the latest possible).
    for (const date of ["2019-04-21", "2024-03-31", "2025-04-20", "2038-04-25", "2008-03-23"]) {
      expect(easterSunday(Number(date.slice(0, 4)))).toBe(dayNumber(date));
    }
  });

  it.each([
    ["2024-03-28", true, "the Thursday before Easter"],
    ["2024-03-29", false, "Good Friday"],
    ["2024-04-01", false, "Easter Monday"],
    ["2024-05-01", false, "Labour Day"],
    ["2024-12-24", true, "Christmas Eve"],
    ["2024-12-25", false, "Christmas Day"],
    ["2024-12-26", false, "Boxing Day"],
    ["2025-01-01", false, "New Year's Day"],
    ["2024-10-12", false, "a Saturday"],
    ["2024-10-13", false, "a Sunday"],
    ["2024-10-14", true, "a Monday"],
  ])("%s is a business day: %s (%s)", (date, expected) => {
    expect(isTargetBusinessDay(dayNumber(date) as number)).toBe(expected);
  });

  it("refuses dates that do not exist", () => {
    for (const date of ["2023-02-29", "2024-13-01", "2024-00-10", "2024-1-10", "24-10-10", "2024-10-10T00:00"]) {
      expect(dayNumber(date)).toBeNull();
    }
    expect(dayNumber("2024-02-29")).not.toBeNull();
  });

  it("expects a day's rates from 16:00 UTC, and the previous business day's before", () => {
    expect(latestDueDay(utc("2024-10-10T15:59:00Z"))).toBe(dayNumber("2024-10-09"));
    expect(latestDueDay(utc("2024-10-10T16:00:00Z"))).toBe(dayNumber("2024-10-10"));
    // Over a weekend and over Easter, the last business day.
    expect(latestDueDay(utc("2024-10-13T12:00:00Z"))).toBe(dayNumber("2024-10-11"));
    expect(latestDueDay(utc("2024-04-01T20:00:00Z"))).toBe(dayNumber("2024-03-28"));
  });

  it("calls the rates stale only after more than one business day without a fetch", () => {
    // Friday's rates on Monday evening: one business day missing, not stale.
    expect(freshness("2024-10-11", utc("2024-10-14T18:00:00Z"))).toEqual({ stale: false });
    // On Tuesday evening two are missing.
    expect(freshness("2024-10-11", utc("2024-10-15T18:00:00Z"))).toEqual({ stale: true, ageBusinessDays: 2 });
    // Thursday's rates over Easter 2024: Good Friday and Easter Monday are not business days.
    expect(freshness("2024-03-28", utc("2024-04-02T18:00:00Z"))).toEqual({ stale: false });
    expect(businessDaysAfter(dayNumber("2024-03-28") as number, dayNumber("2024-04-03") as number)).toBe(2);
  });
});

describe("the feed over HTTP, against the fake", () => {
  const feedWith = (script: Parameters<typeof createFakeEcbFetch>[0] = {}) => {
    const fake = createFakeEcbFetch(script);
    const feed = httpEcbFeed(fake, FAKE_ECB_BASE_URL, { daily: 50, "hist-90d": 50, hist: 50 });
    return { fake, feed };
  };

  it("reads each file from its URL", async () => {
    const { fake, feed } = feedWith({ now: () => utc("2026-11-20T18:00:00Z") });
    const daily = await feed.read("daily");
    const ninety = await feed.read("hist-90d");
    expect(daily.ok && daily.days.map((day) => day.date)).toEqual(["2026-11-20"]);
    expect(ninety.ok && ninety.days.length).toBeGreaterThan(55);
    expect(ninety.ok && ninety.days.every((day) => day.date > "2026-08-22")).toBe(true);
    expect(fake.requests).toEqual([
      `${FAKE_ECB_BASE_URL}/eurofxref-daily.xml`,
      `${FAKE_ECB_BASE_URL}/eurofxref-hist-90d.xml`,
    ]);
  });

  it.each([
    ["http-500", "status", "HTTP 500"],
    ["http-404", "status", "HTTP 404"],
    ["malformed", "malformed", "no gesmes:Envelope"],
    ["empty", "malformed", "no day"],
    ["network-error", "unreachable", "Network connection lost"],
    ["hang", "timeout", "did not answer in 0.05 s"],
  ] as const)("answers the fake's %s as a %s failure", async (answer, reason, detail) => {
    const { feed } = feedWith({ script: [answer] });
    const result = await feed.read("daily");
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toBe(reason);
    expect(!result.ok && result.detail).toContain(detail);
    expect(!result.ok && result.detail).toContain(`${FAKE_ECB_BASE_URL}/eurofxref-daily.xml`);
  });
});

describe("the store", () => {
  const now = Date.now();
  const fixture = fixtureDays(now);
  const store = () => d1RateStore(env.DB, env.CACHE, memorySnapshot([]));

  it("keeps every day, answers a weekend or holiday with the business day before, and the newest from KV", async () => {
    await store().save(fixture);
    // 2024-10-12 is a Saturday: Friday's rates. Good Friday 2024: Thursday's.
    expect((await store().onOrBefore("2024-10-12"))?.date).toBe("2024-10-11");
    expect((await store().onOrBefore("2024-03-29"))?.date).toBe("2024-03-28");
    expect(await store().onOrBefore("2024-10-10")).toEqual({ date: "2024-10-10", rates: ECB_2024_10_10 });
    expect(await store().onOrBefore("1999-01-01")).toBeNull();
    const newest = fixture.at(-1) as DayRates;
    expect(await env.CACHE.get(LATEST_KEY, "json")).toEqual(newest);
    expect(await store().onOrBefore("9999-12-31")).toEqual(newest);
  });

  it("lists a range's published days only, and only the currencies asked", async () => {
    await store().save(fixture);
    const days = await store().between("2024-03-27", "2024-04-03", ["USD", "GBP"]);
    expect(days.map((day) => day.date)).toEqual(["2024-03-27", "2024-03-28", "2024-04-02", "2024-04-03"]);
    expect(days.every((day) => Object.keys(day.rates).sort().join() === "GBP,USD")).toBe(true);
  });

  it("knows when each currency was first and last published", async () => {
    await store().save(fixture);
    const spans = await store().spans();
    expect(spans.find((span) => span.code === "HRK")).toEqual({ code: "HRK", first: "2022-12-19", last: HRK_LAST_DAY });
    expect(spans.find((span) => span.code === "USD")?.last).toBe(fixture.at(-1)?.date);
  });

  it("answers from the snapshot for days D1 does not hold, and from D1 where both do", async () => {
    await store().save(fixture);
    const future = { date: "2099-01-02", rates: { USD: 2 } };
    const sameDay = { date: "2024-10-10", rates: { USD: 9.9 } };
    const old = { date: "2001-05-04", rates: { USD: 0.8965, DEM: 1 } };
    const layered = d1RateStore(env.DB, env.CACHE, memorySnapshot([old, sameDay, future]));
    expect(await layered.onOrBefore("9999-12-31")).toEqual(future);
    expect((await layered.onOrBefore("2024-10-10"))?.rates.USD).toBe(1.0932);
    expect(await layered.onOrBefore("2001-05-06")).toEqual(old);
    expect((await layered.between("2001-01-01", "2001-12-31")).map((day) => day.date)).toEqual(["2001-05-04"]);
    expect((await layered.spans()).find((span) => span.code === "DEM")).toEqual({
      code: "DEM",
      first: "2001-05-04",
      last: "2001-05-04",
    });
  });

  it("reads the snapshot format back as the days it was written from", () => {
    const days = fixtureDays(utc("2026-11-20T18:00:00Z"));
    const file = snapshotFileOf(days, "test", "2026-11-20T18:00:00Z");
    expect(snapshotDays(file)).toEqual(days);
    // The kuna's column is null after its last day.
    const kuna = file.currencies.indexOf("HRK");
    expect(file.days.find(([date]) => date === "2023-01-02")?.[1][kuna]).toBeNull();
  });
});

describe("the bundled snapshot", () => {
  const file = SnapshotFileSchema.parse(bundled);
  const days = snapshotDays(file);

  it("holds the ECB's published quotes, as its eurofxref-hist.csv of 2026-04-13 gives them", () => {
    expect(file.source).toContain("European Central Bank");
    expect(file.source).toContain("eurofxref-hist");
    const store = snapshotStore();
    expect(store.newest()).toBe("2026-04-13");
    expect(store.onOrBefore("2026-04-13")?.rates).toMatchObject({ USD: 1.1684, JPY: 186.75, GBP: 0.87058, ISK: 143.2 });
    expect(store.onOrBefore("2026-01-02")?.rates).toMatchObject({ USD: 1.1721, JPY: 183.94, GBP: 0.8719, CHF: 0.9296 });
    // A weekend answers the Friday before: 2026-04-11 is a Saturday.
    expect(store.onOrBefore("2026-04-12")?.date).toBe("2026-04-10");
    expect(store.onOrBefore("2026-04-10")?.rates.USD).toBe(1.1711);
    // Bulgaria joined the euro on 2026-01-01: the ECB's last lev is 2025-12-31, at the fixed 1.9558.
    expect(store.spans().find((span) => span.code === "BGN")?.last).toBe("2025-12-31");
    expect(store.onOrBefore("2025-12-31")?.rates.BGN).toBe(1.9558);
    expect(store.onOrBefore("2026-01-02")?.rates.BGN).toBeUndefined();
  });

  it("is at least the last 90 business days, every TARGET business day and nothing else, without the euro", () => {
    expect(days.length).toBeGreaterThanOrEqual(90);
    expect(file.currencies).not.toContain("EUR");
    const first = dayNumber(days[0]?.date ?? "") as number;
    const last = dayNumber(days.at(-1)?.date ?? "") as number;
    const expected: string[] = [];
    for (let day = first; day <= last; day += 1) if (isTargetBusinessDay(day)) expected.push(dateOfDay(day));
    expect(days.map((day) => day.date)).toEqual(expected);
    for (const day of days) expect(Object.keys(day.rates).length, day.date).toBeGreaterThanOrEqual(29);
  });
});

/** A store in memory, so the cron's tests can hold any days without touching the shared D1. */
function memoryStore(initial: readonly DayRates[] = []): RateStore & { days: Map<string, DayRates> } {
  const days = new Map(initial.map((day) => [day.date, day]));
  const view = () => memorySnapshot([...days.values()]);
  return {
    days,
    onOrBefore: async (date) => view().onOrBefore(date),
    between: async (start, end, codes) => view().between(start, end, codes),
    spans: async () => view().spans(),
    hasFetchedDays: async () => days.size > 0,
    save: async (saved) => {
      for (const day of saved) days.set(day.date, day);
    },
  };
}

describe("the cron's refresh", () => {
  const now = utc("2026-11-20T18:00:00Z");
  const fixture = fixtureDays(now);
  const run = (store: RateStore, script: FakeEcbAnswer[], slept: number[] = []) => {
    const fake = createFakeEcbFetch({ script, now: () => now });
    const outcome = refreshRates({
      store,
      feed: httpEcbFeed(fake, FAKE_ECB_BASE_URL, { daily: 1000, "hist-90d": 1000, hist: 1000 }),
      kv: env.CACHE,
      now,
      retryDelaysMs: [5, 7],
      sleep: async (ms) => {
        slept.push(ms);
      },
    });
    return { fake, outcome };
  };

  it("asks for the whole history once, then only for what is missing", () => {
    const at = utc("2024-10-16T18:00:00Z");
    expect(feedNeeded(null, false, at)).toBe("hist");
    expect(feedNeeded("2024-10-16", true, at)).toBeNull();
    expect(feedNeeded("2024-10-15", true, at)).toBe("daily");
    expect(feedNeeded("2024-10-11", true, at)).toBe("hist-90d");
    expect(feedNeeded("2024-01-02", true, at)).toBe("hist");
    expect(feedNeeded(null, true, at)).toBe("hist-90d");
  });

  it("fetches the daily file when one day is missing, and tries again after failures until one succeeds", async () => {
    await env.CACHE.put(HISTORY_KEY, "2024-01-01T00:00:00Z");
    const store = memoryStore(fixture.slice(0, -1));
    const slept: number[] = [];
    const { fake, outcome } = run(store, ["http-500", "network-error", "ok"], slept);
    expect(await outcome).toMatchObject({ ok: true, kind: "daily", attempts: 3, saved: 1, newest: "2026-11-20" });
    expect(slept).toEqual([5, 7]);
    expect(fake.requests).toEqual(Array(3).fill(`${FAKE_ECB_BASE_URL}/eurofxref-daily.xml`));
    expect(store.days.get("2026-11-20")).toEqual(fixture.at(-1));
  });

  it("gives up after its retries with the last failure, storing nothing", async () => {
    await env.CACHE.put(HISTORY_KEY, "2024-01-01T00:00:00Z");
    const store = memoryStore(fixture.slice(0, -5));
    const { outcome } = run(store, ["http-500", "hang", "malformed"]);
    expect(await outcome).toMatchObject({ ok: false, kind: "hist-90d", attempts: 3, failure: { reason: "malformed" } });
    expect(store.days.size).toBe(fixture.length - 5);
    // Five business days without rates: the API says so.
    expect(freshness(fixture.at(-6)?.date ?? "", now)).toEqual({ stale: true, ageBusinessDays: 5 });
  });

  it("does nothing when the newest due day is stored", async () => {
    await env.CACHE.put(HISTORY_KEY, "2024-01-01T00:00:00Z");
    const { fake, outcome } = run(memoryStore(fixture), []);
    expect(await outcome).toEqual({ ok: true, kind: null, saved: 0, newest: "2026-11-20", attempts: 0 });
    expect(fake.requests).toEqual([]);
  });

  it("keeps the day it has when the ECB has not published yet", async () => {
    await env.CACHE.put(HISTORY_KEY, "2024-01-01T00:00:00Z");
    // The cron runs after 16:00 UTC on the 20th, but the ECB's daily file still holds the 19th.
    const store = memoryStore(fixture.slice(0, -1));
    const fake = createFakeEcbFetch({ days: fixture.slice(0, -1) });
    const feed = httpEcbFeed(fake, FAKE_ECB_BASE_URL);
    const outcome = await refreshRates({ store, feed, kv: env.CACHE, now, retryDelaysMs: [] });
    expect(outcome).toEqual({ ok: true, kind: "daily", saved: 1, newest: "2026-11-19", attempts: 1 });
    expect(store.days.has("2026-11-20")).toBe(false);
  });

  it("fetches the whole history on a database that never had it, and marks it done", async () => {
    await env.CACHE.delete(HISTORY_KEY);
    const store = memoryStore();
    const { fake, outcome } = run(store, []);
    expect(await outcome).toMatchObject({ ok: true, kind: "hist", saved: fixture.length });
    expect(fake.requests).toEqual([`${FAKE_ECB_BASE_URL}/eurofxref-hist.xml`]);
    expect(await env.CACHE.get(HISTORY_KEY)).not.toBeNull();
    expect(store.days.size).toBe(fixture.length);
  });
});

describe("the Worker's scheduled handler", () => {
  it("runs the refresh on the ECB's triggers, through the configured (fake) feed, into D1 and KV", async () => {
    const now = Date.now();
    await env.CACHE.delete(HISTORY_KEY);
    await env.CACHE.delete(LATEST_KEY);
    await worker.scheduled(createScheduledController({ scheduledTime: now, cron: ECB_CRONS[0] as string }), env);
    const newest = fixtureDays(now).at(-1) as DayRates;
    expect(await env.CACHE.get(LATEST_KEY, "json")).toEqual(newest);
    expect(await env.CACHE.get(HISTORY_KEY)).not.toBeNull();
    const row = await env.DB.prepare("SELECT rate FROM exchange_rates WHERE day = ? AND currency = 'USD'")
      .bind("2024-10-10")
      .first<{ rate: number }>();
    expect(row?.rate).toBe(1.0932);
  });

  it("leaves the ECB alone on the housekeeping trigger", async () => {
    await env.CACHE.delete(LATEST_KEY);
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "17 3 * * *" }), env);
    expect(await env.CACHE.get(LATEST_KEY)).toBeNull();
  });

  it("has a trigger for every ECB cron in wrangler.toml, weekdays after 16:00 CET", () => {
    // Each is after 15:00 UTC on a weekday, or the next morning's catch-up.
    for (const cron of ECB_CRONS) expect(cron).toMatch(/^\d+ (1[5-9]|6) \* \* (1-5|2-6)$/);
  });

  it("fetches the day's file on every weekday trigger: none runs before the calendar counts the day due", () => {
    // Wednesday 2026-11-18 with Tuesday's rates stored: each weekday trigger must find Wednesday missing.
    const weekday = ECB_CRONS.filter((cron) => cron.endsWith(" 1-5"));
    expect(weekday.length).toBeGreaterThan(0);
    for (const cron of weekday) {
      const [minute = NaN, hour = NaN] = cron.split(" ").map(Number);
      expect(feedNeeded("2026-11-17", true, Date.UTC(2026, 10, 18, hour, minute)), cron).toBe("daily");
    }
  });
});
