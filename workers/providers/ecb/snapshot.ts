/**
 * The snapshot of the ECB's rates bundled with the Worker (./snapshot.json: the ECB's newest 90
 * business days, written by scripts/refresh-ecb-snapshot.ts from its eurofxref-hist file; the
 * file's `source` names which and of what day). The store reads it under D1, so a fresh
 * deployment or a local database answers for the days it holds before anything is fetched, and
 * nothing has to be seeded. The format is one row per day against one list of currencies (null
 * where the ECB published none that day). Decision 049 gives why the whole history (6,983 days ×
 * 41 currencies, 2 MB) goes to D1 instead.
 */
import { z } from "zod";
import type { CurrencySpan, DayRates } from "./feed";
import bundled from "./snapshot.json";

export const SnapshotFileSchema = z.object({
  source: z.string(),
  fetchedAt: z.string().nullable(),
  currencies: z.array(z.string().regex(/^[A-Z]{3}$/)),
  days: z.array(z.tuple([z.string(), z.array(z.number().positive().nullable())])),
});

export type SnapshotFile = z.infer<typeof SnapshotFileSchema>;

export interface SnapshotStore {
  onOrBefore(date: string): DayRates | null;
  between(start: string, end: string, codes?: readonly string[]): DayRates[];
  spans(): CurrencySpan[];
  /** Its newest day, or null when it holds none. */
  newest(): string | null;
}

/** The snapshot file as days, oldest first. */
export function snapshotDays(file: SnapshotFile): DayRates[] {
  return file.days
    .map(([date, values]) => {
      const rates: Record<string, number> = {};
      file.currencies.forEach((code, index) => {
        const value = values[index];
        if (typeof value === "number") rates[code] = value;
      });
      return { date, rates };
    })
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

/** The snapshot file for these days (what the refresh script writes). */
export function snapshotFileOf(days: readonly DayRates[], source: string, fetchedAt: string): SnapshotFile {
  const currencies = [...new Set(days.flatMap((day) => Object.keys(day.rates)))].sort();
  return {
    source,
    fetchedAt,
    currencies,
    days: [...days]
      .sort((a, b) => (a.date < b.date ? -1 : 1))
      .map((day) => [day.date, currencies.map((code) => day.rates[code] ?? null)]),
  };
}

/** Queries over a list of days held in memory. */
export function memorySnapshot(days: readonly DayRates[]): SnapshotStore {
  const sorted = [...days].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  let spans: CurrencySpan[] | undefined;
  return {
    onOrBefore(date) {
      // Binary search for the last day <= date.
      let low = 0;
      let high = sorted.length - 1;
      let found = -1;
      while (low <= high) {
        const middle = (low + high) >> 1;
        if ((sorted[middle] as DayRates).date <= date) {
          found = middle;
          low = middle + 1;
        } else high = middle - 1;
      }
      return found < 0 ? null : (sorted[found] as DayRates);
    },
    between(start, end, codes) {
      return sorted
        .filter((day) => day.date >= start && day.date <= end)
        .map((day) =>
          codes && codes.length > 0
            ? {
                date: day.date,
                rates: Object.fromEntries(Object.entries(day.rates).filter(([code]) => codes.includes(code))),
              }
            : day,
        );
    },
    spans() {
      if (!spans) {
        const byCode = new Map<string, CurrencySpan>();
        for (const day of sorted) {
          for (const code of Object.keys(day.rates)) {
            const span = byCode.get(code);
            if (span) span.last = day.date;
            else byCode.set(code, { code, first: day.date, last: day.date });
          }
        }
        spans = [...byCode.values()];
      }
      return spans;
    },
    newest: () => sorted.at(-1)?.date ?? null,
  };
}

let bundledStore: SnapshotStore | undefined;

/** The bundled snapshot, parsed on first use (once per isolate). */
export function snapshotStore(): SnapshotStore {
  bundledStore ??= memorySnapshot(snapshotDays(SnapshotFileSchema.parse(bundled)));
  return bundledStore;
}
