/**
 * Where the ECB's rates are kept: every day in D1 (`exchange_rates`, migration 0014), the newest
 * day and each currency's first and last day in KV (read on every call, rewritten after every
 * fetch), and under both a snapshot bundled with the Worker (./snapshot.ts) that answers for
 * the days D1 does not hold: a fresh deployment or a local database answers from it before the
 * cron has run once, with no seed step. For any day, D1's rows win over the snapshot's.
 */
import { z } from "zod";
import type { CurrencySpan, DayRates } from "./feed";
import { snapshotStore, type SnapshotStore } from "./snapshot";

export type { CurrencySpan } from "./feed";

export interface RateStore {
  /** The rates of the last published day on or before `date` ("9999-12-31" for the newest). */
  onOrBefore(date: string): Promise<DayRates | null>;
  /** Every published day from `start` to `end`, oldest first, only `codes` when given. */
  between(start: string, end: string, codes?: readonly string[]): Promise<DayRates[]>;
  /** Every currency ever published, with its first and last day. */
  spans(): Promise<CurrencySpan[]>;
  /**
   * Whether any day was ever fetched into this database (false on a fresh deployment or a new
   * local database, whose days are the bundled snapshot's alone).
   */
  hasFetchedDays(): Promise<boolean>;
  /** Writes days (a fetch's result), then the KV copies. */
  save(days: readonly DayRates[]): Promise<void>;
}

export const LATEST_KEY = "fx:ecb:latest";
export const SPANS_KEY = "fx:ecb:spans";

const DayRatesSchema = z.object({ date: z.string(), rates: z.record(z.string(), z.number().positive()) });
const SpansSchema = z.array(z.object({ code: z.string(), first: z.string(), last: z.string() }));

interface RateRow {
  day: string;
  currency: string;
  rate: number;
}

function groupDays(rows: readonly RateRow[]): DayRates[] {
  const days = new Map<string, Record<string, number>>();
  for (const row of rows) {
    let rates = days.get(row.day);
    if (!rates) days.set(row.day, (rates = {}));
    rates[row.currency] = row.rate;
  }
  return [...days].map(([date, rates]) => ({ date, rates }));
}

// D1 binds at most 100 parameters a statement: 33 rows of three.
const ROWS_PER_STATEMENT = 33;
const STATEMENTS_PER_BATCH = 200;

async function readKv<T>(kv: KVNamespace, key: string, schema: z.ZodType<T>): Promise<T | null> {
  const value = await kv.get(key, "json").catch(() => null);
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

function mergeSpans(a: readonly CurrencySpan[], b: readonly CurrencySpan[]): CurrencySpan[] {
  const merged = new Map<string, CurrencySpan>();
  for (const span of [...a, ...b]) {
    const seen = merged.get(span.code);
    merged.set(
      span.code,
      seen
        ? {
            code: span.code,
            first: span.first < seen.first ? span.first : seen.first,
            last: span.last > seen.last ? span.last : seen.last,
          }
        : { ...span },
    );
  }
  return [...merged.values()].sort((x, y) => (x.code < y.code ? -1 : 1));
}

/** The store over D1 and KV, with `snapshot` under them (the bundled one unless given). */
export function d1RateStore(db: D1Database, kv: KVNamespace, snapshot: SnapshotStore = snapshotStore()): RateStore {
  async function d1OnOrBefore(date: string): Promise<DayRates | null> {
    const { results } = await db
      .prepare(
        "SELECT day, currency, rate FROM exchange_rates WHERE day = (SELECT MAX(day) FROM exchange_rates WHERE day <= ?)",
      )
      .bind(date)
      .all<RateRow>();
    return groupDays(results)[0] ?? null;
  }

  async function d1Spans(): Promise<CurrencySpan[]> {
    const { results } = await db
      .prepare("SELECT currency, MIN(day) AS first, MAX(day) AS last FROM exchange_rates GROUP BY currency")
      .all<{ currency: string; first: string; last: string }>();
    return results.map((row) => ({ code: row.currency, first: row.first, last: row.last }));
  }

  const later = (a: DayRates | null, b: DayRates | null) => (!a ? b : !b ? a : b.date > a.date ? b : a);

  return {
    async onOrBefore(date) {
      // The newest day is what most calls ask for: KV holds it, refreshed by every fetch.
      const fromSnapshot = snapshot.onOrBefore(date);
      if (date >= "9999-12-31") {
        const cached = await readKv(kv, LATEST_KEY, DayRatesSchema);
        if (cached) return later(cached, fromSnapshot);
      }
      return later(await d1OnOrBefore(date), fromSnapshot);
    },

    async between(start, end, codes) {
      const filter = codes && codes.length > 0 ? ` AND currency IN (${codes.map(() => "?").join(", ")})` : "";
      const { results } = await db
        .prepare(`SELECT day, currency, rate FROM exchange_rates WHERE day >= ? AND day <= ?${filter} ORDER BY day`)
        .bind(start, end, ...(codes ?? []))
        .all<RateRow>();
      const days = new Map<string, DayRates>();
      for (const day of snapshot.between(start, end, codes)) days.set(day.date, day);
      for (const day of groupDays(results)) days.set(day.date, day);
      return [...days.values()].sort((a, b) => (a.date < b.date ? -1 : 1));
    },

    async spans() {
      const cached = await readKv(kv, SPANS_KEY, SpansSchema);
      return mergeSpans(cached ?? (await d1Spans()), snapshot.spans());
    },

    async hasFetchedDays() {
      // Every save writes the newest day to KV; without it (never saved, or KV lost) D1 decides.
      if ((await kv.get(LATEST_KEY)) !== null) return true;
      return (await db.prepare("SELECT 1 AS found FROM exchange_rates LIMIT 1").first<{ found: number }>()) !== null;
    },

    async save(days) {
      const rows = days.flatMap((day) =>
        Object.entries(day.rates).map(([currency, rate]) => [day.date, currency, rate] as const),
      );
      const statements: D1PreparedStatement[] = [];
      for (let index = 0; index < rows.length; index += ROWS_PER_STATEMENT) {
        const chunk = rows.slice(index, index + ROWS_PER_STATEMENT);
        statements.push(
          db
            .prepare(
              `INSERT INTO exchange_rates (day, currency, rate) VALUES ${chunk.map(() => "(?, ?, ?)").join(", ")} ` +
                // The ECB corrects a published rate now and then: the newer fetch is the truth.
                "ON CONFLICT (day, currency) DO UPDATE SET rate = excluded.rate",
            )
            .bind(...chunk.flat()),
        );
      }
      for (let index = 0; index < statements.length; index += STATEMENTS_PER_BATCH) {
        await db.batch(statements.slice(index, index + STATEMENTS_PER_BATCH));
      }
      const newest = await d1OnOrBefore("9999-12-31");
      if (newest) await kv.put(LATEST_KEY, JSON.stringify(newest));
      await kv.put(SPANS_KEY, JSON.stringify(await d1Spans()));
    },
  };
}
