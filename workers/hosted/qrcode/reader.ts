/**
 * Reading QR codes with ZXing-C++ (zxing-wasm's reader build, Apache-2.0): it finds several
 * codes in one image and reports each one's error-correction level and version, which jsQR
 * (the other JavaScript reader) does not.
 *
 * workerd refuses to compile WebAssembly from bytes at run time, so the `.wasm` file is imported
 * as a module (bundled as CompiledWasm, like resvg's and libwebp's) and handed to Emscripten's
 * `instantiateWasm` hook already compiled; without the hook the glue would fetch it from a CDN.
 * Both imports are dynamic: the reader (~950 KB of WebAssembly) is instantiated on the first
 * decode, not on every isolate's start-up.
 *
 * Pixels reach it already decoded (by photon, as every image API decodes them) rather than as a
 * file, so it reads whatever the image APIs read, WebP included, which ZXing's own stb_image
 * loader does not.
 */
import type { RgbaPixels } from "../_image/pixels";

export type QrLevel = "L" | "M" | "Q" | "H";

export interface FoundCode {
  text: string;
  /** The raw bytes the code holds, before any character set was applied. */
  bytes: Uint8Array;
  errorCorrection: QrLevel | null;
  version: number | null;
  format: string;
  position: Record<"topLeft" | "topRight" | "bottomRight" | "bottomLeft", { x: number; y: number }>;
}

/** Most codes answered from one image: enough for a sheet of labels, bounded for the isolate. */
export const MAX_CODES = 32;

type ReaderModule = typeof import("zxing-wasm/reader");

/** How the compiled module becomes an instance: WebAssembly.instantiate, or a test's stand-in. */
export type Instantiate = (module: WebAssembly.Module, imports: WebAssembly.Imports) => Promise<WebAssembly.Instance>;

/** The reader could not be started (its WebAssembly did not instantiate): nothing to do with the image. */
export class QrReaderUnavailableError extends Error {
  constructor(cause: unknown) {
    super("the QR code reader's WebAssembly did not instantiate", { cause });
    this.name = "QrReaderUnavailableError";
  }
}

/**
 * A reader that instantiates ZXing on its first use. Emscripten's `instantiateWasm` hook has no
 * way to report a failure (its promise settles only when `ready` is called), so a failed
 * instantiation is raced against it here: the call that started it is answered with
 * QrReaderUnavailableError instead of waiting for ever, and the next call starts again.
 */
export function createQrReader(instantiate: Instantiate): (pixels: RgbaPixels) => Promise<FoundCode[]> {
  let readerReady: Promise<ReaderModule> | undefined;

  function loadReader(): Promise<ReaderModule> {
    readerReady ??= (async () => {
      const [reader, { default: wasm }] = await Promise.all([
        import("zxing-wasm/reader"),
        import("zxing-wasm/reader/zxing_reader.wasm"),
      ]);
      // The package types this import as a URL string (for bundlers that copy the file); in
      // workerd, wrangler and the vite and vitest plugins it is the compiled module.
      const module = wasm as unknown as WebAssembly.Module;
      let failed: (error: unknown) => void = () => undefined;
      const failure = new Promise<never>((_, reject) => {
        failed = reject;
      });
      await Promise.race([
        reader.prepareZXingModule({
          overrides: {
            instantiateWasm(imports: WebAssembly.Imports, ready: (instance: WebAssembly.Instance) => void) {
              instantiate(module, imports).then(ready, failed);
              return {};
            },
          },
          fireImmediately: true,
        }),
        failure,
      ]);
      return reader;
    })().catch((error: unknown) => {
      // A failed start must not poison the isolate: let the next request try again.
      readerReady = undefined;
      throw new QrReaderUnavailableError(error);
    });
    return readerReady;
  }

  return (pixels) => readWith(loadReader(), pixels);
}

const LEVELS = new Set<string>(["L", "M", "Q", "H"]);

function versionOf(extra: string, legacy: string): number | null {
  let value: unknown = legacy;
  try {
    const parsed = JSON.parse(extra) as { Version?: unknown };
    if (parsed.Version !== undefined) value = parsed.Version;
  } catch {
    // `extra` is experimental in zxing-wasm; the deprecated field is the fallback.
  }
  const number = Number(value);
  return Number.isInteger(number) && number > 0 ? number : null;
}

/**
 * Every QR code ZXing finds in `pixels` (opaque RGBA; lay transparency over a background first).
 * Rejects with QrReaderUnavailableError when ZXing could not be started.
 */
export const readQrCodes = createQrReader((module, imports) => WebAssembly.instantiate(module, imports));

async function readWith(loaded: Promise<ReaderModule>, pixels: RgbaPixels): Promise<FoundCode[]> {
  const { readBarcodes } = await loaded;
  const results = await readBarcodes(
    { data: pixels.data, width: pixels.width, height: pixels.height } as unknown as ImageData,
    {
      formats: ["QRCode", "MicroQRCode", "RMQRCode"],
      tryHarder: true,
      tryRotate: true,
      tryInvert: true,
      textMode: "Plain",
      maxNumberOfSymbols: MAX_CODES,
    },
  );
  return results
    .filter((result) => result.isValid)
    .map((result) => ({
      text: result.text,
      bytes: result.bytes,
      errorCorrection: LEVELS.has(result.ecLevel) ? (result.ecLevel as QrLevel) : null,
      // Micro QR (M1–M4) and rMQR (R7x43, …) sizes are not QR versions 1–40.
      version: result.format.startsWith("QRCode") ? versionOf(result.extra, result.version) : null,
      format: result.format,
      position: {
        topLeft: { x: result.position.topLeft.x, y: result.position.topLeft.y },
        topRight: { x: result.position.topRight.x, y: result.position.topRight.y },
        bottomRight: { x: result.position.bottomRight.x, y: result.position.bottomRight.y },
        bottomLeft: { x: result.position.bottomLeft.x, y: result.position.bottomLeft.y },
      },
    }));
}
