/**
 * Which engine cuts the subject out here (decision 062): Cloudflare Images where the IMAGES
 * binding is (production), finished in the engine Worker; else the engine Worker's classic
 * engine; else none, and the API answers 503 engine-unavailable naming IMAGES.
 */
import type { CutoutEngines, ForegroundSegmenter } from "~workers/hosted/capabilities";
import { imagesForegroundSegmenter } from "~workers/providers/cloudflare-images/foreground";
import { CLASSIC_ENGINE, checkClassicInput, identifyCutoutInput } from "../_image/cutout-input";

/** The engine Worker's stub as the cut-out methods its entrypoint implements. */
export function rpcCutoutEngines(binding: Env["ENGINES"]): CutoutEngines {
  return {
    cutOut: (request) => binding.cutOut(request),
    finishCutout: (request) => binding.finishCutout(request),
  };
}

/**
 * The classic engine over RPC. What the header alone refuses (not a PNG, JPEG or WebP, beyond
 * its decoding limits) is answered here, without sending up to 10 MB over the binding; the
 * engine checks again.
 */
export function classicForegroundSegmenter(engines: CutoutEngines): ForegroundSegmenter {
  return {
    engine: CLASSIC_ENGINE,
    async cutOut(request) {
      const identified = identifyCutoutInput(request.image);
      if (!identified.ok) return identified;
      const header = checkClassicInput(request.image);
      if (!header.ok) return header;
      return engines.cutOut(request);
    },
  };
}

export function foregroundSegmenterFor(env: {
  IMAGES?: ImagesBinding;
  ENGINES?: Env["ENGINES"];
}): ForegroundSegmenter | undefined {
  const engines = env.ENGINES && rpcCutoutEngines(env.ENGINES);
  if (!engines) return undefined;
  return env.IMAGES ? imagesForegroundSegmenter(env.IMAGES, engines) : classicForegroundSegmenter(engines);
}
