/**
 * The scheduled refresh of the ECB's rates, as workers/app.ts `scheduled` runs it: its own
 * triggers in wrangler.toml (weekdays after the ECB publishes, with later retries), told apart
 * from the daily housekeeping by `controller.cron`.
 */
import { readConfig } from "~workers/config";
import { ecbFeedFor } from ".";
import { refreshRates, type EcbRefreshOutcome } from "./refresh";
import { d1RateStore } from "./store";

/**
 * The triggers in wrangler.toml that run the refresh (UTC; 16:00 CET is 15:00 UTC in winter, 14:00
 * in summer). The weekday ones must come after 16:00 UTC, when calendar.ts counts the day due: a
 * run before it finds nothing missing and fetches nothing.
 */
export const ECB_CRONS: readonly string[] = ["10 16 * * 1-5", "50 16 * * 1-5", "30 19 * * 1-5", "10 6 * * 2-6"];

export async function refreshEcbRates(env: Env, scheduledTime: number): Promise<EcbRefreshOutcome> {
  const outcome = await refreshRates({
    store: d1RateStore(env.DB, env.CACHE),
    feed: ecbFeedFor(readConfig(env)),
    kv: env.CACHE,
    now: scheduledTime,
  });
  // The run's result is in the Worker's logs; a failure also shows to callers as `stale`.
  if (outcome.ok) console.log(JSON.stringify({ job: "ecb-refresh", ...outcome }));
  else console.error(JSON.stringify({ job: "ecb-refresh", ...outcome }));
  return outcome;
}
