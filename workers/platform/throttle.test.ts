import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { randomSuffix } from "../../tests/factories";
import {
  clientAddress,
  hitThrottle,
  ipv6Prefix64,
  pruneThrottleWindows,
  releaseThrottle,
  type ThrottleRule,
} from "./throttle";

const MINUTE = 60_000;
/** A rule of its own per test: the test files share one database. */
function rule(limit = 3, windowMs = 10 * MINUTE): ThrottleRule {
  return { name: `test-${randomSuffix()}`, limit, windowMs };
}
/**
 * A time at the start of a window of every length used here, so the arithmetic is plain, and
 * long past: pruning "a day before T0" then touches no window another test file is counting.
 */
const T0 = 1_000_000_000_000 - (1_000_000_000_000 % (60 * MINUTE));

describe("hitThrottle", () => {
  it("lets `limit` hits through in a window, then refuses until the window ends", async () => {
    const limits = rule(3);
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await hitThrottle(env.DB, limits, "client", T0 + i * 1000));
    expect(results.slice(0, 3)).toEqual([
      { ok: true, remaining: 2 },
      { ok: true, remaining: 1 },
      { ok: true, remaining: 0 },
    ]);
    // Refused 3 s into a 10-minute window: 597 s until it ends.
    expect(results[3]).toEqual({ ok: false, retryAfterSeconds: 597 });
    expect(await hitThrottle(env.DB, limits, "client", T0 + 10 * MINUTE)).toEqual({ ok: true, remaining: 2 });
  });

  it("counts each rule and each subject on its own", async () => {
    const a = rule(1);
    const b = rule(1);
    expect((await hitThrottle(env.DB, a, "one", T0)).ok).toBe(true);
    expect((await hitThrottle(env.DB, a, "one", T0)).ok).toBe(false);
    expect((await hitThrottle(env.DB, a, "two", T0)).ok).toBe(true);
    expect((await hitThrottle(env.DB, b, "one", T0)).ok).toBe(true);
  });

  it("lets exactly `limit` of many concurrent hits through (one atomic upsert each)", async () => {
    const limits = rule(5);
    const results = await Promise.all(Array.from({ length: 30 }, () => hitThrottle(env.DB, limits, "burst", T0)));
    expect(results.filter((result) => result.ok)).toHaveLength(5);
  });

  it("stores the subject hashed: an email or an address never sits in the table", async () => {
    const limits = rule();
    const subject = `someone-${randomSuffix()}@example.com`;
    await hitThrottle(env.DB, limits, subject, T0);
    const rows = await env.DB.prepare(`SELECT bucket FROM rate_limit_windows WHERE bucket LIKE ?`)
      .bind(`${limits.name}:%`)
      .all<{ bucket: string }>();
    expect(rows.results).toHaveLength(1);
    expect(rows.results[0]?.bucket).toMatch(new RegExp(`^${limits.name}:[0-9a-f]{64}$`));
    expect(rows.results[0]?.bucket).not.toContain(subject);
  });
});

describe("releaseThrottle", () => {
  it("gives back one reservation of its own window, and never goes below zero", async () => {
    const limits = rule(1);
    expect((await hitThrottle(env.DB, limits, "login", T0)).ok).toBe(true);
    await releaseThrottle(env.DB, limits, "login", T0 + 5);
    await releaseThrottle(env.DB, limits, "login", T0 + 6);
    expect(await hitThrottle(env.DB, limits, "login", T0 + 7)).toEqual({ ok: true, remaining: 0 });
    expect((await hitThrottle(env.DB, limits, "login", T0 + 8)).ok).toBe(false);
  });

  it("gives back nothing in another window", async () => {
    const limits = rule(1);
    await hitThrottle(env.DB, limits, "login", T0 + 10 * MINUTE);
    // A reservation made in the previous window, released late: the current count stands.
    await releaseThrottle(env.DB, limits, "login", T0);
    expect((await hitThrottle(env.DB, limits, "login", T0 + 10 * MINUTE + 1)).ok).toBe(false);
  });
});

describe("pruneThrottleWindows", () => {
  it("deletes windows that ended more than a day ago, and keeps the rest", async () => {
    const limits = rule(1, MINUTE);
    const day = 24 * 60 * MINUTE;
    await hitThrottle(env.DB, limits, "old", T0 - day - MINUTE);
    await hitThrottle(env.DB, limits, "recent", T0 - MINUTE);
    await pruneThrottleWindows(env.DB, T0);
    // The old window is gone (its subject starts afresh there); the recent one still counts.
    expect((await hitThrottle(env.DB, limits, "old", T0 - day - MINUTE)).ok).toBe(true);
    expect((await hitThrottle(env.DB, limits, "recent", T0 - MINUTE)).ok).toBe(false);
  });
});

describe("clientAddress", () => {
  const from = (headers: Record<string, string>) => new Request("https://portico.test/", { headers });

  it("is 'local' without Cloudflare's header, and the address as given for IPv4", () => {
    expect(clientAddress(from({}))).toBe("local");
    expect(clientAddress(from({ "cf-connecting-ip": "  " }))).toBe("local");
    expect(clientAddress(from({ "cf-connecting-ip": " 198.51.100.4 " }))).toBe("198.51.100.4");
    // Only Cloudflare's header counts: a client's own X-Forwarded-For is not believed.
    expect(clientAddress(from({ "x-forwarded-for": "198.51.100.9" }))).toBe("local");
  });

  it.each([
    ["[2001:db8:1:2::9]", "2001:db8:1:2::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["2001:db8::1::2", "2001:db8::1::2"],
    ["2001:db8:1:2:3:4:5:6:7", "2001:db8:1:2:3:4:5:6:7"],
    ["2001:db8:zz:1::", "2001:db8:zz:1::"],
  ])("reduces %s to %s (anything unparseable stays as given)", (address, expected) => {
    expect(ipv6Prefix64(address)).toBe(expected);
  });
});
