/**
 * The weekly refresh of IANA's RDAP bootstrap file into KV (wrangler.toml's trigger, run by
 * workers/app.ts `scheduled`). IANA changes the file a few times a month, as registries add or
 * move RDAP servers; a week's lag costs at most a port-43 answer or a 422 for a newly listed TLD.
 * With RDAP_PROVIDER=fake the fake serves the snapshot as IANA's file, so the job runs offline.
 */
import { readConfig } from "~workers/config";
import { refreshBootstrap, type BootstrapRefreshOutcome } from "./bootstrap";
import { bootstrapFetcher } from "./index";

/** Mondays at 04:40 UTC, away from the daily housekeeping's 03:17 and the ECB's evening runs. */
export const RDAP_BOOTSTRAP_CRON = "40 4 * * 1";

export async function refreshRdapBootstrap(env: Env): Promise<BootstrapRefreshOutcome> {
  const outcome = await refreshBootstrap(env.CACHE, await bootstrapFetcher(readConfig(env).RDAP_PROVIDER));
  // A failed refresh leaves the last good copy (or the snapshot) in use; the log says why.
  if (!outcome.ok) console.warn(`RDAP bootstrap refresh failed: ${outcome.reason}`);
  return outcome;
}
