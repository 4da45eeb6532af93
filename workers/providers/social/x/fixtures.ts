/**
 * The X posts the fake records (x/recorded.ts), as a user would paste them. The first is the
 * pinned public post the docs and the live demo use.
 */
import type { FixtureScenario } from "../fake-platform";

export const X_FIXTURE_URLS: Partial<Record<FixtureScenario, string>> = {
  public: "https://x.com/NASA/status/1850214830462251210",
  multiQuality: "https://x.com/NASA/status/1850214830462251210",
  carousel: "https://x.com/NASAWebb/status/1849563725161279632",
  deleted: "https://x.com/NASA/status/1848920011345678901",
  private: "https://x.com/quiet_orbit/status/1847712300998877665",
  loginWall: "https://x.com/nightsky_uncut/status/1846600112233445566",
  rateLimited: "https://x.com/NASA/status/1845511223344556677",
  changedShape: "https://x.com/NASA/status/1844422334455667788",
};

/** Paths only X has: syndication failing over to the guest token, a GIF, a quote, a post without media. */
export const X_EXTRA_FIXTURE_URLS = {
  /** Syndication answers 503; the guest-token GraphQL answer carries the post (an animated GIF). */
  syndicationFallback: "https://twitter.com/NASA_Marshall/status/1843333445566778899",
  /** Syndication answers 404; GraphQL says the post is behind X's sensitive-media wall. */
  nsfwViaGraphql: "https://x.com/nightsky_uncut/status/1841155667788990011",
  /** A text-only post: both sources show it, neither has media. */
  noMedia: "https://x.com/NASA/status/1842244556677889900",
  /** Only GraphQL shows it, under a visibility notice; its media is the post it quotes. */
  quoteUnderNotice: "https://x.com/spacefan42/status/1840066778899001122",
  /** Syndication answers 404 and GraphQL a result type we do not read. */
  unreadableGraphql: "https://x.com/NASA/status/1839955667788990011",
} as const;
