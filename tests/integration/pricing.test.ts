import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { readConfig } from "~workers/config";
import { countryOf } from "~workers/platform/country";
import { priceFor } from "~workers/platform/plans";
import { callApi, cookieFrom, randomClientAddress, randomEmail, signUpVerified, STRONG_PASSWORD } from "../factories";

const BASE = "https://portico.test";

describe("visitor country", () => {
  const config = { isDevelopment: false };
  it("prefers the edge's country, then CF-IPCountry, then IN", () => {
    const withCf = new Request(`${BASE}/`, { headers: { "cf-ipcountry": "DE" } });
    Object.defineProperty(withCf, "cf", { value: { country: "FR" } });
    expect(countryOf(withCf, config)).toBe("FR");
    expect(countryOf(new Request(`${BASE}/`, { headers: { "cf-ipcountry": "DE" } }), config)).toBe("DE");
    expect(countryOf(new Request(`${BASE}/`, { headers: { "cf-ipcountry": "XX" } }), config)).toBe("IN");
    expect(countryOf(new Request(`${BASE}/`), config)).toBe("IN");
  });

  it("takes ?country=XX only in development", () => {
    expect(countryOf(new Request(`${BASE}/?country=us`), { isDevelopment: true })).toBe("US");
    expect(countryOf(new Request(`${BASE}/?country=us`), { isDevelopment: false })).toBe("IN");
    expect(readConfig(env).isDevelopment).toBe(true);
  });

  it("answers user-metadata with the country, cached per address", async () => {
    const ip = randomClientAddress();
    const first = await SELF.fetch(`${BASE}/api/users/fetch/user-metadata`, {
      headers: { "cf-connecting-ip": ip, "cf-ipcountry": "GB" },
    });
    expect(await first.json()).toEqual({ countryCode: "GB" });
    // The cached answer stands for a day, whatever a later header says.
    const second = await SELF.fetch(`${BASE}/api/users/fetch/user-metadata`, {
      headers: { "cf-connecting-ip": ip, "cf-ipcountry": "US" },
    });
    expect(await second.json()).toEqual({ countryCode: "GB" });
  });
});

describe("prices", () => {
  it("come from the plan table, with 5% off for a referred buyer", () => {
    expect(priceFor("standard", "USD", false)).toBe(900);
    expect(priceFor("premium", "USD", false)).toBe(1_700);
    expect(priceFor("standard", "INR", false)).toBe(2_100);
    expect(priceFor("premium", "INR", false)).toBe(4_600);
    expect(priceFor("standard", "USD", true)).toBe(855);
    expect(priceFor("premium", "INR", true)).toBe(4_370);
  });
});

describe("pricing page", () => {
  it("shows rupee prices in India and dollar prices elsewhere", async () => {
    const india = await (await SELF.fetch(`${BASE}/user/subscription?country=IN`)).text();
    expect(india).toContain("₹21.00");
    expect(india).toContain("₹46.00");
    expect(india).toContain("Cashfree");
    const us = await (await SELF.fetch(`${BASE}/user/subscription?country=US`)).text();
    expect(us).toContain("$9.00");
    expect(us).toContain("$17.00");
    expect(us).toContain("Most Popular");
    expect(us).toContain("Please login first");
    expect(us).toContain("300 to 2500 requests a month");
  });

  it("applies the referral discount for a signed-in referred user", async () => {
    const referrer = await signUpVerified(SELF);
    const referred = await signUpVerified(SELF, { referralCode: String(referrer.body.referralCode) });
    const html = await (
      await SELF.fetch(`${BASE}/user/subscription?country=US`, { headers: { cookie: referred.cookie } })
    ).text();
    expect(html).toContain("$8.55");
    expect(html).toContain("$16.15");
    expect(html).not.toContain("Please login first");
  });
});
