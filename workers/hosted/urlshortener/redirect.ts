/**
 * `GET /s/<alias>`: the short links themselves. A live link answers 302 (not 301, which
 * browsers cache, so later clicks would go uncounted); an unknown or expired one goes to the
 * redirect-error page. The click is counted after the response.
 */
import { Hono } from "hono";
import { ALIAS_PATTERN } from "./schema";
import { recordClick, referrerHost, resolveAlias } from "./links";

export const shortLinkRedirects = new Hono<{ Bindings: Env }>();

shortLinkRedirects.get("/s/:alias", async (c) => {
  const alias = c.req.param("alias");
  const now = Date.now();
  const resolution = ALIAS_PATTERN.test(alias)
    ? await resolveAlias(c.env.DB, alias, now)
    : ({ kind: "missing" } as const);
  if (resolution.kind !== "found") {
    return c.redirect(
      `/${resolution.kind === "expired" ? "expired" : "missing"}/redirect/error/${encodeURIComponent(alias)}`,
      302,
    );
  }
  const country = (c.req.raw.cf as { country?: string } | undefined)?.country ?? c.req.header("cf-ipcountry") ?? "";
  c.executionCtx.waitUntil(
    recordClick(c.env.DB, resolution.row.id, {
      at: now,
      referrer: referrerHost(c.req.header("referer") ?? null),
      country: /^[A-Z]{2}$/.test(country) ? country : "",
    }).catch((error: unknown) => console.error("click not recorded", error)),
  );
  c.header("Cache-Control", "private, no-store");
  return c.redirect(resolution.row.url, 302);
});
