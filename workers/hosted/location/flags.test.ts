import { decodePng } from "image-js";
import { describe, expect, it } from "vitest";
// The list of countries, read apart from the module under test.
import dataset from "world-countries/countries.json";
import { createTestContext } from "../../../tests/hosted-context";
import { callOperation, expectJson, findOperation } from "../_data/operation-test-helpers";
import { definition } from "./index";
import type { CountryRecord } from "./schema";

const listCountries = findOperation(definition, "listCountries");

// What the build copies to the static assets, and flag-icons' own files: read by vite at test
// time, so a missing or changed file fails here rather than as a 404 in production.
const servedSvgs = import.meta.glob<string>("/public/flags/svg/*.svg", { query: "?raw", import: "default" });
const servedPngs = import.meta.glob<string>("/public/flags/w320/*.png", { query: "?inline", import: "default" });
const packageSvgs = import.meta.glob<string>("/node_modules/flag-icons/flags/4x3/*.svg", {
  query: "?raw",
  import: "default",
});

const worldCountries = dataset as unknown as { cca2: string; name: { common: string } }[];

const ORIGIN = "https://flags.portico.test";

async function countries(raw: Record<string, unknown>): Promise<Partial<CountryRecord>[]> {
  const ctx = createTestContext({ origin: ORIGIN });
  return (expectJson(await callOperation(listCountries, raw, ctx)) as { data: Partial<CountryRecord>[] }).data;
}

function load(files: Record<string, () => Promise<string>>, folder: string, name: string): Promise<string> {
  const loader = files[`/${folder}/${name}`];
  if (!loader) throw new Error(`${folder}/${name} does not exist`);
  return loader();
}

/** The bytes of a `?inline` data URL. */
function bytesOf(dataUrl: string): Uint8Array {
  const [header, base64 = ""] = dataUrl.split(",", 2);
  expect(header).toBe("data:image/png;base64");
  return Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** Checks the PNG container by the spec (signature, every chunk's CRC, IHDR first, IEND last) and returns IHDR's size. */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  expect([...bytes.subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const types: string[] = [];
  let at = 8;
  while (at < bytes.length) {
    const length = view.getUint32(at);
    const typeAndData = bytes.subarray(at + 4, at + 8 + length);
    expect(view.getUint32(at + 8 + length), "chunk CRC").toBe(crc32(typeAndData));
    types.push(String.fromCharCode(...typeAndData.subarray(0, 4)));
    at += 12 + length;
  }
  expect(at).toBe(bytes.length);
  expect(types[0]).toBe("IHDR");
  expect(types.at(-1)).toBe("IEND");
  expect(types).toContain("IDAT");
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

describe("location: flag images", () => {
  it("gives every country SVG and PNG URLs on the request's origin, and alt text", async () => {
    const all = await countries({ fields: "cca2,name,flags" });
    expect(all).toHaveLength(worldCountries.length);
    for (const country of all) {
      const code = (country.cca2 ?? "").toLowerCase();
      expect(country.flags, code).toEqual({
        svg: `${ORIGIN}/flags/svg/${code}.svg`,
        png: `${ORIGIN}/flags/w320/${code}.png`,
        alt: `The flag of ${country.name?.common}`,
      });
    }
    const [kosovo] = await countries({ code: "XK", fields: "flags" });
    expect(kosovo?.flags?.svg).toBe(`${ORIGIN}/flags/svg/xk.svg`);
  });

  it("serves each country's SVG exactly as flag-icons' 4x3 file", async () => {
    expect(Object.keys(servedSvgs)).toHaveLength(worldCountries.length);
    for (const { cca2 } of worldCountries) {
      const name = `${cca2.toLowerCase()}.svg`;
      const served = await load(servedSvgs, "public/flags/svg", name);
      expect(served, name).toBe(await load(packageSvgs, "node_modules/flag-icons/flags/4x3", name));
      expect(served, name).toMatch(/^<svg [^>]*viewBox="0 0 640 480"/);
    }
  });

  it("serves each country's PNG, valid and 320 by 240", async () => {
    expect(Object.keys(servedPngs)).toHaveLength(worldCountries.length);
    for (const { cca2 } of worldCountries) {
      const name = `${cca2.toLowerCase()}.png`;
      const bytes = bytesOf(await load(servedPngs, "public/flags/w320", name));
      expect(pngSize(bytes), name).toEqual({ width: 320, height: 240 });
      const image = decodePng(bytes);
      expect([image.width, image.height], name).toEqual([320, 240]);
    }
  });

  it("renders the flags' colours where they are: Japan's red disc on white, France's tricolour", async () => {
    const japan = decodePng(bytesOf(await load(servedPngs, "public/flags/w320", "jp.png")));
    expect(japan.getPixel(160, 120).slice(0, 3)).toEqual([188, 0, 45]);
    expect(japan.getPixel(5, 5).slice(0, 3)).toEqual([255, 255, 255]);
    const france = decodePng(bytesOf(await load(servedPngs, "public/flags/w320", "fr.png")));
    // flag-icons' French blue and red (#000091, #e1000f), in the left and right thirds.
    expect(france.getPixel(50, 120).slice(0, 3)).toEqual([0, 0, 145]);
    expect(france.getPixel(160, 120).slice(0, 3)).toEqual([255, 255, 255]);
    expect(france.getPixel(270, 120).slice(0, 3)).toEqual([225, 0, 15]);
  });

  it("ships flag-icons' licence beside the copies", async () => {
    // A glob without a wildcard makes vite glob an empty pattern, hence the "*".
    const licence = import.meta.glob<string>("/public/flags/LICEN*", { query: "?raw", import: "default" });
    expect(Object.keys(licence)).toEqual(["/public/flags/LICENSE"]);
    const text = await licence["/public/flags/LICENSE"]?.();
    expect(text).toMatch(/^The MIT License \(MIT\)\s+Copyright \(c\) 2013 Panayiotis Lipiridis/);
  });
});
