/**
 * The ECB feed the configuration chooses: the ECB itself (`ECB_PROVIDER=ecb`, production) or the
 * local fake (`fake`, development and tests), whose module is loaded only through `loadFakes()`
 * so a production build does not hold it.
 */
import type { Config } from "~workers/config";
import { lazyFetch } from "../fakes";
import { FAKE_ECB_BASE_URL, httpEcbFeed, type EcbFeed } from "./feed";

export function ecbFeedFor(config: Pick<Config, "ECB_PROVIDER" | "ECB_BASE_URL">): EcbFeed {
  if (config.ECB_PROVIDER === "fake") {
    return httpEcbFeed(
      lazyFetch((fakes) => fakes.fakeEcbFetch()),
      FAKE_ECB_BASE_URL,
    );
  }
  return httpEcbFeed((input, init) => fetch(input, init), config.ECB_BASE_URL);
}
