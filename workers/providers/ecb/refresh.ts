/**
 * The cron job that keeps the ECB's rates (wrangler.toml's weekday triggers after 16:00 CET;
 * workers/app.ts `scheduled`). Each run asks for no more than it lacks: nothing when the
 * newest due day is stored, the daily file when one day is missing, the 90-day file after a
 * longer gap, and the whole history once per database (a fresh deployment). A failed fetch is
 * tried again within the run after a pause, and the later triggers of the same day try again;
 * what the API shows meanwhile is `stale` (calendar.ts) once two business days are missing.
 */
import { businessDaysAfter, dayNumber, latestDueDay } from "./calendar";
import type { EcbFeed, FeedFailure, FeedKind } from "./feed";
import type { RateStore } from "./store";

/** Set once the whole history has been stored, so it is fetched once per database. */
export const HISTORY_KEY = "fx:ecb:history";

export type EcbRefreshOutcome =
  | { ok: true; kind: FeedKind | null; saved: number; newest: string | null; attempts: number }
  | { ok: false; kind: FeedKind; attempts: number; failure: FeedFailure };

/** Which file this run needs, or null when nothing is due. */
export function feedNeeded(newestStored: string | null, historyStored: boolean, now: number): FeedKind | null {
  if (!historyStored) return "hist";
  const stored = newestStored === null ? null : dayNumber(newestStored);
  if (stored === null) return "hist-90d";
  const missing = businessDaysAfter(stored, latestDueDay(now));
  if (missing === 0) return null;
  if (missing === 1) return "daily";
  // The 90-day file holds about 62 business days.
  return missing <= 60 ? "hist-90d" : "hist";
}

export interface RefreshOptions {
  store: RateStore;
  feed: EcbFeed;
  kv: KVNamespace;
  now: number;
  /** Pauses between attempts within one run; the later cron triggers are the longer retries. */
  retryDelaysMs?: readonly number[];
  sleep?: (ms: number) => Promise<void>;
  signal?: AbortSignal;
}

const DEFAULT_RETRY_DELAYS_MS = [10_000, 60_000];

export async function refreshRates(options: RefreshOptions): Promise<EcbRefreshOutcome> {
  const { store, feed, kv, now } = options;
  const delays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const historyStored = (await kv.get(HISTORY_KEY)) !== null;
  const newest = (await store.onOrBefore("9999-12-31"))?.date ?? null;
  const kind = feedNeeded(newest, historyStored, now);
  if (kind === null) return { ok: true, kind, saved: 0, newest, attempts: 0 };

  let attempts = 0;
  let failure: FeedFailure | undefined;
  for (;;) {
    attempts += 1;
    const result = await feed.read(kind, options.signal);
    if (result.ok) {
      await store.save(result.days);
      if (kind === "hist") await kv.put(HISTORY_KEY, new Date(now).toISOString());
      const stored = result.days.at(-1)?.date ?? newest;
      // Before the ECB publishes, the daily file still holds the day already stored: not a failure.
      return {
        ok: true,
        kind,
        saved: result.days.length,
        newest: stored && newest && newest > stored ? newest : stored,
        attempts,
      };
    }
    failure = result;
    const delay = delays[attempts - 1];
    if (delay === undefined || options.signal?.aborted) break;
    await sleep(delay);
  }
  return { ok: false, kind, attempts, failure };
}

/**
 * For a new database (no rates at all, or only the bundled snapshot's, already stale): one read
 * of the 90-day file, so the first call answers the current rates without waiting for the cron.
 * Later calls find the rows it stored.
 */
export async function fillEmptyStore(
  store: RateStore,
  feed: EcbFeed,
  signal?: AbortSignal,
): Promise<FeedFailure | null> {
  const result = await feed.read("hist-90d", signal);
  if (!result.ok) return result;
  await store.save(result.days);
  return null;
}
