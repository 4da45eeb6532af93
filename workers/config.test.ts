import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ConfigSchema, readConfig } from "./config";

const production = {
  ...env,
  APP_ENV: "production",
  SESSION_SECRET: "a-production-secret-of-plenty-of-characters",
  OIDC_PROVIDER: "google",
  OIDC_ISSUER: "https://accounts.google.com",
  MAIL_PROVIDER: "http",
  MAIL_API_URL: "https://api.resend.com/emails",
  MAIL_API_KEY: "re_key",
  PAYPAL_PROVIDER: "live",
  PAYPAL_BASE_URL: "https://api-m.paypal.com",
  PAYPAL_CLIENT_ID: "client",
  PAYPAL_CLIENT_SECRET: "secret",
  CASHFREE_PROVIDER: "live",
  CASHFREE_BASE_URL: "https://api.cashfree.com/pg",
  CASHFREE_CLIENT_ID: "cf-client",
  CASHFREE_CLIENT_SECRET: "cf-secret",
  WEBHOOK_BASE_URL: "https://hooks.portico.dev",
  RDAP_PROVIDER: "live",
  ECB_PROVIDER: "ecb",
  MX_PROVIDER: "doh",
  SOCIAL_PROVIDER: "live",
};

describe("configuration", () => {
  it("reads the development defaults of wrangler.toml", () => {
    const config = readConfig(env);
    expect(config).toMatchObject({ isDevelopment: true, OIDC_PROVIDER: "fake", MAIL_PROVIDER: "outbox" });
    expect(config.ADMIN_EMAIL).toBe("admin@portico.local");
  });

  it("accepts a complete production configuration", () => {
    expect(ConfigSchema.safeParse(production).success).toBe(true);
  });

  it.each([
    ["OIDC_PROVIDER", { OIDC_PROVIDER: "fake" }],
    ["MAIL_PROVIDER", { MAIL_PROVIDER: "outbox" }],
    ["SESSION_SECRET", { SESSION_SECRET: env.SESSION_SECRET }],
    ["MAIL_API_URL", { MAIL_API_KEY: "" }],
    ["PAYPAL_PROVIDER", { PAYPAL_PROVIDER: "fake" }],
    ["CASHFREE_PROVIDER", { CASHFREE_PROVIDER: "fake" }],
    ["CASHFREE_BASE_URL", { CASHFREE_CLIENT_SECRET: "" }],
    ["WEBHOOK_BASE_URL", { WEBHOOK_BASE_URL: "http://localhost:8787" }],
    ["RDAP_PROVIDER", { RDAP_PROVIDER: "fake" }],
    ["MX_PROVIDER", { MX_PROVIDER: "fake" }],
    // Plain HTTP would let anyone on the path answer for any domain's mail servers.
    ["DNS_RESOLVER_URL", { DNS_RESOLVER_URL: "http://cloudflare-dns.com/dns-query" }],
    ["ECB_PROVIDER", { ECB_PROVIDER: "fake" }],
    // Plain HTTP would let anyone on the path publish the rates every conversion uses.
    ["ECB_BASE_URL", { ECB_BASE_URL: "http://www.ecb.europa.eu/stats/eurofxref" }],
    ["SOCIAL_PROVIDER", { SOCIAL_PROVIDER: "fake" }],
    // Plain HTTP would let anyone on the path answer for a platform (and pick the media we tunnel).
    ["YOUTUBE_BASE_URL", { YOUTUBE_BASE_URL: "http://www.youtube.com" }],
    ["X_SYNDICATION_URL", { X_SYNDICATION_URL: "http://cdn.syndication.twimg.com" }],
  ])("refuses the development value of %s in production", (field, change) => {
    const parsed = ConfigSchema.safeParse({ ...production, ...change });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.path[0])).toContain(field);
  });

  it("reads PUBLIC_HOSTS as the URL parser writes host names: lower case, IDNA, no trailing dot", () => {
    const parsed = ConfigSchema.safeParse({ ...env, PUBLIC_HOSTS: " Portico.DEV., bücher.example ,, www.portico.dev" });
    expect(parsed.data?.PUBLIC_HOSTS).toEqual(["portico.dev", "xn--bcher-kva.example", "www.portico.dev"]);
  });

  it.each(["https://portico.dev", "portico.dev:443", "portico.dev/s", "*.portico.dev", "user@portico.dev", "[::1"])(
    "refuses %s in PUBLIC_HOSTS, which is not a bare host name",
    (entry) => {
      const parsed = ConfigSchema.safeParse({ ...env, PUBLIC_HOSTS: `portico.dev,${entry}` });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues.map((issue) => issue.path[0])).toContain("PUBLIC_HOSTS");
    },
  );

  it("refuses production without PUBLIC_HOSTS: the URL shortener could not tell its own hosts", () => {
    const parsed = ConfigSchema.safeParse({ ...production, PUBLIC_HOSTS: " " });
    expect(parsed.error?.issues.map((issue) => issue.path[0])).toContain("PUBLIC_HOSTS");
  });
});
