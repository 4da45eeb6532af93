/**
 * The Worker's configuration, parsed once per isolate from its env. Production refuses the
 * local fakes and the development secret, so a fake identity provider or mail outbox can
 * never be switched on by a deploy.
 */
import { z } from "zod";
import { checkProductionPayments, PaymentsConfigSchema } from "./providers/payments-config";

const DEV_SESSION_SECRET = "development-only-session-secret-not-for-production";

const emailList = z
  .string()
  .default("")
  .transform((value) =>
    value
      .split(",")
      .map((email) => email.trim().toLowerCase())
      .filter(Boolean),
  );

/**
 * PUBLIC_HOSTS: the host names this site is served on, comma-separated. The URL shortener
 * refuses links to them and to their subdomains, so no short link can lead to another. Each
 * entry is read the way the URL parser reads a link's host (case folded, IDNA, percent-encoding
 * decoded, trailing dots dropped), so the comparison is between two normalised names.
 */
const hostList = z
  .string()
  .default("")
  .transform((value, ctx) =>
    value
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean)
      .flatMap((entry) => {
        const host = bareHostName(entry);
        if (host === null) ctx.addIssue({ code: "custom", message: `"${entry}" is not a bare host name` });
        return host === null ? [] : [host];
      }),
  );

function bareHostName(entry: string): string | null {
  let url: URL;
  try {
    url = new URL(`http://${entry}/`);
  } catch {
    return null;
  }
  // A scheme, port, path or user name in the entry shows up as one of these.
  if (url.host !== url.hostname || url.pathname !== "/" || url.username || url.password) return null;
  // "portico.dev." is portico.dev: the root's dot names the same host.
  let end = url.hostname.length;
  while (end > 0 && url.hostname.charAt(end - 1) === ".") end -= 1;
  const host = url.hostname.slice(0, end);
  // The parser lets through what no DNS name holds ("*.portico.dev"); a pattern is not a host.
  return host.split(".").every((label) => /^[a-z0-9-]+$/.test(label)) ? host : null;
}

const BaseSchema = z
  .object({
    APP_ENV: z.enum(["development", "production"]),
    SESSION_SECRET: z.string().min(32, "SESSION_SECRET must be at least 32 characters"),
    ADMIN_EMAIL: z.string().trim().toLowerCase().pipe(z.email()),
    PRIVILEGED_EMAILS: emailList,
    OIDC_PROVIDER: z.enum(["fake", "google"]),
    OIDC_ISSUER: z.string().default(""),
    OIDC_CLIENT_ID: z.string().min(1),
    OIDC_CLIENT_SECRET: z.string().min(1),
    MAIL_PROVIDER: z.enum(["outbox", "http", "binding"]),
    MAIL_FROM: z.string().min(3),
    MAIL_API_URL: z.string().default(""),
    MAIL_API_KEY: z.string().default(""),
    DNS_RESOLVER_URL: z.url().default("https://cloudflare-dns.com/dns-query"),
    // Email Exists' MX lookups: DNS_RESOLVER_URL ("doh"), or the local fake's fixture table.
    MX_PROVIDER: z.enum(["fake", "doh"]).default("fake"),
    // The Currency Converter's rates (decision 049): the ECB's feed, or the local fake.
    ECB_PROVIDER: z.enum(["fake", "ecb"]).default("fake"),
    ECB_BASE_URL: z.url().default("https://www.ecb.europa.eu/stats/eurofxref"),
    BENCH_ROUTES: z.enum(["on", "off"]).default("off"),
    // How long the gateway gathers usage rollups before one D1 batch (usage-recorder.ts): at
    // most 25, inside the 30 s a Worker may work after its response.
    USAGE_FLUSH_SECONDS: z.coerce.number().int().min(1).max(25).default(1),
    PUBLIC_HOSTS: hostList,
    // The WHOIS Lookup's registries: the recorded fakes (workers/providers/rdap/fake.ts) or the real ones.
    RDAP_PROVIDER: z.enum(["fake", "live"]).default("fake"),
    // The Social Media Videos Downloader's platforms: the recorded fakes
    // (workers/providers/social/*/fake.ts) or the platforms themselves, at these base URLs.
    SOCIAL_PROVIDER: z.enum(["fake", "live"]).default("fake"),
    YOUTUBE_BASE_URL: z.url().default("https://www.youtube.com"),
    INSTAGRAM_BASE_URL: z.url().default("https://www.instagram.com"),
    FACEBOOK_BASE_URL: z.url().default("https://www.facebook.com"),
    X_SYNDICATION_URL: z.url().default("https://cdn.syndication.twimg.com"),
    X_API_URL: z.url().default("https://api.x.com"),
    LINKEDIN_BASE_URL: z.url().default("https://www.linkedin.com"),
    PINTEREST_BASE_URL: z.url().default("https://www.pinterest.com"),
  })
  .extend(PaymentsConfigSchema.shape);

/** The platforms' base URLs (Social Media Videos Downloader), each https in production. */
export const SOCIAL_BASE_URL_KEYS = [
  "YOUTUBE_BASE_URL",
  "INSTAGRAM_BASE_URL",
  "FACEBOOK_BASE_URL",
  "X_SYNDICATION_URL",
  "X_API_URL",
  "LINKEDIN_BASE_URL",
  "PINTEREST_BASE_URL",
] as const;

export const ConfigSchema = BaseSchema.superRefine((config, ctx) => {
  if (config.APP_ENV !== "production") return;
  const refuse = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
  if (config.SESSION_SECRET === DEV_SESSION_SECRET) refuse("SESSION_SECRET", "set a production secret");
  if (config.OIDC_PROVIDER === "fake") refuse("OIDC_PROVIDER", "the fake identity provider is for development only");
  if (config.MAIL_PROVIDER === "outbox") refuse("MAIL_PROVIDER", "the mail outbox is for development only");
  if (config.ECB_PROVIDER === "fake") refuse("ECB_PROVIDER", "the fake ECB feed is for development only");
  if (config.MX_PROVIDER === "fake") refuse("MX_PROVIDER", "the fake DNS answers are for development only");
  // Over plain HTTP anyone on the path could answer for any domain's mail servers.
  if (!config.DNS_RESOLVER_URL.startsWith("https://")) refuse("DNS_RESOLVER_URL", "must be an https URL");
  // Over plain HTTP anyone on the path could set the rates every conversion uses.
  if (!config.ECB_BASE_URL.startsWith("https://")) refuse("ECB_BASE_URL", "must be an https URL");
  if (config.BENCH_ROUTES === "on") refuse("BENCH_ROUTES", "the benchmark routes are for local measurement only");
  if (config.PUBLIC_HOSTS.length === 0) refuse("PUBLIC_HOSTS", "list the hosts the site is served on");
  if (config.RDAP_PROVIDER === "fake") refuse("RDAP_PROVIDER", "the recorded registries are for development only");
  if (config.SOCIAL_PROVIDER === "fake") refuse("SOCIAL_PROVIDER", "the recorded platforms are for development only");
  for (const key of SOCIAL_BASE_URL_KEYS) {
    if (!config[key].startsWith("https://")) refuse(key, "must be an https URL");
  }
  checkProductionPayments(config, refuse);
  if (config.OIDC_PROVIDER === "google" && !config.OIDC_ISSUER.startsWith("https://"))
    refuse("OIDC_ISSUER", "must be an https URL");
  if (config.MAIL_PROVIDER === "http" && (!config.MAIL_API_URL.startsWith("https://") || !config.MAIL_API_KEY))
    refuse("MAIL_API_URL", "the HTTP mail provider needs MAIL_API_URL (https) and MAIL_API_KEY");
});

export type Config = z.infer<typeof BaseSchema> & { isDevelopment: boolean };

/**
 * A reader of a Worker's env through `schema`, parsed once per env object (an isolate keeps
 * one), throwing with every problem named when the configuration is incomplete.
 */
export function envReader<E extends object, T>(schema: z.ZodType<T>, worker: string): (env: E) => T {
  const cache = new WeakMap<E, T>();
  return (env) => {
    const cached = cache.get(env);
    if (cached) return cached;
    const parsed = schema.safeParse(env);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ");
      throw new Error(`Invalid ${worker} configuration: ${problems}`);
    }
    cache.set(env, parsed.data);
    return parsed.data;
  };
}

export const readConfig: (env: Env) => Config = envReader(
  ConfigSchema.transform((config) => ({ ...config, isDevelopment: config.APP_ENV === "development" })),
  "Worker",
);
