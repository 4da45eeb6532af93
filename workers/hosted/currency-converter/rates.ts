/**
 * What the Currency Converter reads its rates through (its `OperationContext` capability): the
 * store of ECB days (D1, KV, the bundled snapshot), a clock for `stale`, and a one-time fill
 * for a store that holds nothing at all (workers/providers/ecb/refresh.ts `fillEmptyStore`):
 * the 90-day file before answering, then the whole history after the answer, as the cron's
 * first run would (it is the same job; whichever finishes first sets the history's mark).
 */
import type { EcbFeed, FeedFailure } from "~workers/providers/ecb/feed";
import { fillEmptyStore, refreshRates } from "~workers/providers/ecb/refresh";
import { d1RateStore, type RateStore } from "~workers/providers/ecb/store";
import type { SnapshotStore } from "~workers/providers/ecb/snapshot";

export interface ExchangeRates {
  store: RateStore;
  /** Reads the 90-day file into an empty store; the failure when the feed failed. */
  fillEmpty(signal?: AbortSignal): Promise<FeedFailure | null>;
  /** After a fill: the whole history, in the background (`waitUntil`); failures are left to the cron. */
  fillHistory(): Promise<unknown>;
  now(): number;
}

export function ecbExchangeRates(
  db: D1Database,
  kv: KVNamespace,
  feed: EcbFeed,
  options: { now?: () => number; snapshot?: SnapshotStore } = {},
): ExchangeRates {
  const store = d1RateStore(db, kv, options.snapshot);
  const now = options.now ?? Date.now;
  return {
    store,
    fillEmpty: (signal) => fillEmptyStore(store, feed, signal),
    fillHistory: () => refreshRates({ store, feed, kv, now: now(), retryDelaysMs: [] }).catch(() => undefined),
    now,
  };
}
