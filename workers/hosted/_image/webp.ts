/**
 * Lossy WebP with libwebp (Squoosh's build, packaged as @jsquash/webp, Apache-2.0), because
 * photon's WebP encoder writes lossless WebP only and so cannot honour `quality`.
 *
 * workerd refuses to compile WebAssembly from bytes at run time, so the `.wasm` file is imported
 * as a module (wrangler, the vite plugin and the vitest plugin bundle it as CompiledWasm) and
 * handed to `init` already compiled, as `_render/svg-to-png.ts` does for resvg. `init` picks the
 * SIMD glue when the runtime has WebAssembly SIMD (workerd's V8 does), so the SIMD build is the
 * one imported. Both imports are dynamic: the encoder (~345 KB of WebAssembly) is instantiated
 * on the first WebP encode, not on every isolate's start-up.
 */
import type { RgbaPixels } from "./pixels";

type WebpEncode = (pixels: RgbaPixels, quality: number) => Promise<Uint8Array>;

let encoderReady: Promise<WebpEncode> | undefined;

function loadEncoder(): Promise<WebpEncode> {
  encoderReady ??= (async () => {
    const [{ default: encode, init }, { default: wasm }] = await Promise.all([
      import("@jsquash/webp/encode"),
      import("@jsquash/webp/codec/enc/webp_enc_simd.wasm"),
    ]);
    // The typings omit the documented `init(module)` overload that the code has.
    await (init as (module: WebAssembly.Module) => Promise<unknown>)(wasm);
    return async (pixels: RgbaPixels, quality: number) => {
      // The encoder reads only data, width and height; workerd has no ImageData constructor.
      const image = { data: pixels.data, width: pixels.width, height: pixels.height } as unknown as ImageData;
      return new Uint8Array(await encode(image, { quality }));
    };
  })().catch((error: unknown) => {
    // A failed instantiation must not poison the isolate: let the next request try again.
    encoderReady = undefined;
    throw error;
  });
  return encoderReady;
}

/** Lossy WebP at `quality` (1–100, libwebp's scale); alpha is kept, losslessly compressed. */
export async function encodeLossyWebp(pixels: RgbaPixels, quality: number): Promise<Uint8Array> {
  const encode = await loadEncoder();
  return encode(pixels, quality);
}
