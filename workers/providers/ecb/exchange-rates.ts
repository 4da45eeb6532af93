/**
 * The Currency Converter's rates capability (`ExchangeRates`, declared on the API's side in
 * workers/hosted/capabilities.ts) over the ECB provider: the store of ECB days (D1, KV, the
 * bundled snapshot), a clock for `stale`, and a one-time fill for a store that holds no day
 * fetched from the feed — empty, or only the bundled snapshot's days once they are stale
 * (refresh.ts `fillEmptyStore`): the 90-day file before answering, then the whole history
 * after the answer, as the cron's first run would (it is the same job; whichever finishes first
 * sets the history's mark).
 */
import type { ExchangeRates } from "~workers/hosted/capabilities";
import type { EcbFeed } from "./feed";
import { fillEmptyStore, refreshRates } from "./refresh";
import { d1RateStore } from "./store";
import type { SnapshotStore } from "./snapshot";

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
