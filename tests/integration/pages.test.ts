import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { SITE } from "~/lib/site";

const BASE = "https://portico.test";

describe("server-rendered pages", () => {
  it("renders the home page with the headline, the menu and structured data", async () => {
    const response = await SELF.fetch(`${BASE}/`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(SITE.headline);
    // React escapes the apostrophe in text, Preact does not need to.
    expect(html).toMatch(/More API(&#x27;|')s/);
    for (const type of ["WebAPI", "FAQPage", "BreadcrumbList", "Organization", "WebSite", "SearchAction"]) {
      expect(html).toContain(`"@type":"${type}"`);
    }
  });

  it("cannot be framed by another site, on every page including errors", async () => {
    for (const path of ["/", "/user/subscription", "/no-such-page"]) {
      const response = await SELF.fetch(`${BASE}${path}`);
      expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      expect(response.headers.get("x-frame-options")).toBe("DENY");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });

  it("titles a docs page from its menu entry", async () => {
    const html = await (await SELF.fetch(`${BASE}/docs/api/qrcode`)).text();
    expect(html).toContain("<title>QR Code Generator API — Portico</title>");
    expect(html).toContain("Standard");
  });

  it("answers 404 with the not-found texts for an unknown path", async () => {
    const response = await SELF.fetch(`${BASE}/no/such/page`);
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain("Looks like you");
    expect(html).toContain("The page you are looking for is not available!");
  });

  it("answers 404 for an unknown API's docs", async () => {
    expect((await SELF.fetch(`${BASE}/docs/api/teleport`)).status).toBe(404);
  });

  it("redirects the specification's misspelt docs names", async () => {
    const response = await SELF.fetch(`${BASE}/docs/api/urlshortner`, { redirect: "manual" });
    expect(response.status).toBe(301);
    expect(new URL(response.headers.get("location") ?? "", BASE).pathname).toBe("/docs/api/urlshortener");
  });

  it.each(["/terms-and-conditions", "/privacy-policy", "/docs"])("renders %s", async (path) => {
    const response = await SELF.fetch(`${BASE}${path}`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(SITE.supportEmail.split("@")[0]);
  });
});
