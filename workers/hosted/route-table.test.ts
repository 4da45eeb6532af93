import { describe, expect, it } from "vitest";
import { DEFINED_SLUGS, loadDefinition, loadDefinitions } from "./definitions";
import { HOSTED_APIS } from "./registry";
import { legacyRouteEntries, renderRouteTable, ROUTE_TABLE, routeTableOf } from "./route-table";

describe("the route table (decision 064)", () => {
  // The file the router mounts from: written again by this test with -u (its header says how).
  it("is the definitions' routes, as route-table.generated.ts holds them", async () => {
    await expect(renderRouteTable(await loadDefinitions())).toMatchFileSnapshot("./route-table.generated.ts");
  });

  it("is what the Worker imports", async () => {
    expect(ROUTE_TABLE).toEqual(routeTableOf(await loadDefinitions()));
    expect(legacyRouteEntries().map((legacy) => `${legacy.method} ${legacy.path} ${legacy.slug}`)).toEqual([
      "GET /api/country/phone-codes phone-codes",
      "POST /api/polyline polyline",
      "POST /api/qrcode qrcode",
      "POST /api/download/videos youtube-instagram-video-downloader",
    ]);
  });
});

describe("loading definitions", () => {
  it("finds each API's definition in the folder named by its slug, every one in the registry", async () => {
    const slugs = HOSTED_APIS.map((api) => api.slug);
    for (const slug of DEFINED_SLUGS) {
      expect(slugs, slug).toContain(slug);
      expect((await loadDefinition(slug))?.slug).toBe(slug);
    }
  });

  it("loads an API once, and nothing for a slug without a folder", async () => {
    const first = loadDefinition("qrcode");
    expect(loadDefinition("qrcode")).toBe(first);
    expect(await first).toBe(await loadDefinition("qrcode"));
    // An alias is the registry's to resolve; only slugs have folders.
    expect(await loadDefinition("urlshortner")).toBeUndefined();
    expect(await loadDefinition("nope")).toBeUndefined();
  });
});
