/**
 * SVG → PNG for the hosted APIs (avatar, qrcode), with resvg compiled to WebAssembly.
 *
 * workerd refuses to compile WebAssembly from bytes at run time, so the `.wasm` file is imported
 * as a module (wrangler, the vite plugin and the vitest plugin all bundle it as CompiledWasm)
 * and handed to `initWasm` already compiled. resvg-wasm keeps one global instance and throws
 * when initialised twice, so every caller in the isolate goes through `ensureResvg`.
 */
import { initWasm, Resvg } from "@resvg/resvg-wasm";
import resvgWasm from "@resvg/resvg-wasm/index_bg.wasm";
import { OPEN_SANS_FAMILY, OPEN_SANS_TTF_GZIP_BASE64 } from "./open-sans-font";

let resvgReady: Promise<void> | undefined;

function ensureResvg(): Promise<void> {
  resvgReady ??= initWasm(resvgWasm).catch((error: unknown) => {
    // A failed instantiation must not poison the isolate: let the next request try again.
    resvgReady = undefined;
    throw error;
  });
  return resvgReady;
}

let fontBytes: Promise<Uint8Array> | undefined;

/** The bundled font, gunzipped once per isolate (about 1 ms) and only when an SVG has text. */
function loadFont(): Promise<Uint8Array> {
  fontBytes ??= (async () => {
    const binary = atob(OPEN_SANS_TTF_GZIP_BASE64);
    const gzipped = new Uint8Array(binary.length);
    for (let index = 0; index < binary.length; index += 1) gzipped[index] = binary.charCodeAt(index);
    const stream = new Blob([gzipped]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  })().catch((error: unknown) => {
    fontBytes = undefined;
    throw error;
  });
  return fontBytes;
}

const TEXT_ELEMENT = /<text[\s>]/;

export interface SvgToPngOptions {
  /** Output width in pixels; the height follows the SVG's aspect ratio. Default: the SVG's own width. */
  width?: number;
}

/**
 * Renders an SVG document to PNG bytes. Deterministic: the same SVG and options give the same
 * bytes. Throws when resvg cannot parse the SVG; callers answer that as an engine failure.
 */
export async function renderSvgToPng(svg: string, options: SvgToPngOptions = {}): Promise<Uint8Array> {
  const needsFont = TEXT_ELEMENT.test(svg);
  const [, font] = await Promise.all([ensureResvg(), needsFont ? loadFont() : Promise.resolve(undefined)]);
  const resvg = new Resvg(svg, {
    fitTo: options.width === undefined ? { mode: "original" } : { mode: "width", value: options.width },
    // Only the bundled font exists: every family, generic or named ("system-ui"), resolves to it.
    // usvg falls back to the serif family when no named family matches, so that is set too.
    font: font
      ? {
          fontBuffers: [font],
          defaultFontFamily: OPEN_SANS_FAMILY,
          sansSerifFamily: OPEN_SANS_FAMILY,
          serifFamily: OPEN_SANS_FAMILY,
          monospaceFamily: OPEN_SANS_FAMILY,
          cursiveFamily: OPEN_SANS_FAMILY,
          fantasyFamily: OPEN_SANS_FAMILY,
        }
      : { fontBuffers: [] },
  });
  try {
    const image = resvg.render();
    try {
      return image.asPng();
    } finally {
      image.free();
    }
  } finally {
    // wasm-bindgen objects live in the wasm heap until freed; an isolate serves many requests.
    resvg.free();
  }
}
