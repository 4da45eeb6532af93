/**
 * The Pinterest pins the fake records (pinterest/recorded.ts), as a user would paste them. The
 * first is the pinned public pin the docs and the live demo use.
 */
import type { FixtureScenario } from "../fake-platform";

export const PINTEREST_FIXTURE_URLS: Partial<Record<FixtureScenario, string>> = {
  public: "https://www.pinterest.com/pin/1055599907085543/",
  multiQuality: "https://www.pinterest.com/pin/1055599907085543/",
  carousel: "https://www.pinterest.com/pin/1055599907085611/",
  deleted: "https://www.pinterest.com/pin/1055599907085699/",
  rateLimited: "https://www.pinterest.com/pin/1055599907085700/",
  changedShape: "https://www.pinterest.com/pin/1055599907085701/",
};

/** Paths only Pinterest has. */
export const PINTEREST_EXTRA_FIXTURE_URLS = {
  /** A plain image pin. */
  image: "https://www.pinterest.com/pin/1055599907085577/",
  /** A story (idea) pin: its video lives in story_pin_data's blocks. */
  storyPin: "https://www.pinterest.com/pin/1055599907085588/",
  /** The page answers its Relay form only; the pin comes from the PinResource endpoint. */
  relayPage: "https://www.pinterest.com/pin/1055599907085622/",
  /** A pin.it short link to the image pin. */
  share: "https://pin.it/4xQmZ8tVb",
} as const;
