import { describe, expect, it } from "vitest";
import { catalogByGroup, lookupCatalogEntry } from "./catalog";
import { findHostedApi, HOSTED_APIS } from "./registry";
import { listSideMenu } from "./side-menu";

// The product's docs names (docs/product.md#routes), each of which must lead to a page.
const SPEC_DOCS_NAMES = [
  "avatar",
  "urlshortner",
  "colorconvert",
  "location",
  "qrcode",
  "numtoword",
  "removebg",
  "phone-codes",
  "email-exist",
  "polyine",
  "resume-parser",
  "youtube-instagram-video-downloader",
  "image-processing",
  "image-color-picker",
  "merge-images",
  "text-to-speech",
  "image-to-text",
  "html-to-pdf",
  "audio-to-text",
  "currency-converter",
  "image-to-base64",
  "whois-domain",
];

describe("hosted API registry", () => {
  it("describes the 22 APIs once each", () => {
    expect(HOSTED_APIS).toHaveLength(22);
    const names = HOSTED_APIS.flatMap((api) => [api.slug, ...api.aliases]);
    expect(new Set(names).size).toBe(names.length);
  });

  it("finds every docs name of the specification", () => {
    for (const name of SPEC_DOCS_NAMES) expect(findHostedApi(name), name).toBeDefined();
    expect(findHostedApi("nothing-here")).toBeUndefined();
  });

  it("places the APIs in the specification's plan groups", () => {
    const group = (slug: string) => findHostedApi(slug)?.group;
    expect(
      [
        "qrcode",
        "removebg",
        "email-exist",
        "youtube-instagram-video-downloader",
        "audio-to-text",
        "text-to-speech",
      ].map(group),
    ).toEqual(Array(6).fill("premium"));
    expect(["html-to-pdf", "image-to-text", "currency-converter", "resume-parser"].map(group)).toEqual(
      Array(4).fill("freemium"),
    );
    expect(
      [
        "avatar",
        "urlshortner",
        "location",
        "colorconvert",
        "numtoword",
        "phone-codes",
        "polyine",
        "image-processing",
        "image-color-picker",
        "merge-images",
        "image-to-base64",
        "whois-domain",
      ].map(group),
    ).toEqual(Array(12).fill("free"));
  });

  it("sends the specification's misspellings to the canonical docs page", () => {
    expect(lookupCatalogEntry("urlshortner")).toEqual({ kind: "alias", canonicalPath: "/docs/api/urlshortener" });
    expect(lookupCatalogEntry("polyine")).toEqual({ kind: "alias", canonicalPath: "/docs/api/polyline" });
    expect(lookupCatalogEntry("nope")).toEqual({ kind: "missing" });
  });

  it("says which plans include each group", () => {
    const plans = (slug: string) => {
      const found = lookupCatalogEntry(slug);
      return found.kind === "found" ? found.entry.plans.map((plan) => plan.id) : [];
    };
    expect(plans("qrcode")).toEqual(["standard", "premium"]);
    expect(plans("avatar")).toEqual(["free", "standard", "premium"]);
    const freemium = lookupCatalogEntry("html-to-pdf");
    expect(freemium.kind === "found" && freemium.entry.plans[0]?.note).toMatch(/50 calls/);
  });

  it("groups the catalog and filters it by name or purpose", () => {
    const groups = catalogByGroup();
    expect(groups.map((g) => [g.group, g.apis.length])).toEqual([
      ["free", 12],
      ["freemium", 4],
      ["premium", 6],
    ]);
    const pdf = catalogByGroup("PDF").flatMap((g) => g.apis.map((api) => api.slug));
    expect(pdf).toEqual(expect.arrayContaining(["html-to-pdf", "resume-parser"]));
    expect(pdf).not.toContain("avatar");
  });

  it("builds the side menu with Home first and one entry per API", () => {
    const menu = listSideMenu();
    expect(menu[0]).toMatchObject({ _id: "home", name: "Home", endpoint: "/" });
    expect(menu).toHaveLength(23);
    for (const item of menu)
      expect(Object.keys(item).sort()).toEqual(["_id", "class_name", "description", "endpoint", "name"]);
  });
});
