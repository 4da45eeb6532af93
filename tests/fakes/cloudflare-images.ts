/**
 * A fake of the Cloudflare Images binding (`env.IMAGES`), at the binding's boundary: the same
 * chained API (`input(stream).transform({...}).output({format})` resolving to a result whose
 * `image()` is a stream), answering foreground segmentation as production does, an RGBA PNG
 * whose alpha is the mask, here a mask the test chooses. Production is the only place the real
 * segmentation runs: Miniflare's local Images binding ignores `segment` (research §2).
 *
 * It honours what Remove Background asks of it (`segment`, `width`/`height` with
 * `fit: "scale-down"`, PNG output), records every call for the tests to read, and refuses
 * anything else loudly, so a change in how the provider calls Images shows in the tests.
 */
import { PhotonImage, resize, SamplingFilter } from "@cf-wasm/photon/workerd";

/** The subject's mask at a point of the output, u and v from 0 to 1 across it: 0–255. */
export type FakeMask = (u: number, v: number) => number;

export interface FakeImagesCall {
  transforms: ImageTransform[];
  output: ImageOutputOptions | null;
  inputBytes: number;
}

/** An `ImagesError` as the binding throws it: a message and Images' numeric code. */
export class FakeImagesError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(`IMAGES_TRANSFORM_ERROR ${code}: ${message}`);
  }
}

export interface FakeImages {
  binding: ImagesBinding;
  calls: FakeImagesCall[];
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export interface FakeImagesOptions {
  mask: FakeMask;
  fail?: FakeImagesError;
  /**
   * A soft mask's faint alpha over the background, as a matting model leaves it (JPEG halos, a
   * shadow): where `mask` says 0, alpha 1–4 instead.
   */
  haze?: boolean;
  /** Answer this late (milliseconds), as a slow or stuck service does. */
  delayMs?: number;
}

export function fakeImagesBinding(options: FakeImagesOptions): FakeImages {
  const calls: FakeImagesCall[] = [];

  const transformer = (input: Promise<Uint8Array>, call: FakeImagesCall): ImageTransformer => ({
    transform(transform: ImageTransform) {
      call.transforms.push(transform);
      return transformer(input, call);
    },
    draw() {
      throw new Error("fake Images: draw() is not used by Remove Background");
    },
    async output(output: ImageOutputOptions): Promise<ImageTransformationResult> {
      call.output = output;
      if (output.format !== "image/png") throw new Error(`fake Images: output ${output.format} is not faked`);
      const bytes = await input;
      call.inputBytes = bytes.length;
      if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
      if (options.fail) throw options.fail;
      let image: PhotonImage;
      try {
        image = PhotonImage.new_from_byteslice(bytes);
      } catch {
        throw new FakeImagesError(9412, "Input is not an image");
      }
      for (const transform of call.transforms) {
        const known = new Set(["segment", "width", "height", "fit"]);
        const unknown = Object.keys(transform).filter((name) => !known.has(name));
        if (unknown.length > 0) throw new Error(`fake Images: transform ${unknown.join(", ")} is not faked`);
        if (transform.width && transform.height && transform.fit === "scale-down") {
          if (transform.width < image.get_width() || transform.height < image.get_height()) {
            const scaled = resize(image, transform.width, transform.height, SamplingFilter.Triangle);
            image.free();
            image = scaled;
          }
        }
      }
      const segmented = call.transforms.some((transform) => transform.segment === "foreground");
      const width = image.get_width();
      const height = image.get_height();
      const pixels = image.get_raw_pixels();
      image.free();
      if (segmented) {
        for (let y = 0; y < height; y++) {
          for (let x = 0; x < width; x++) {
            const alpha = options.mask((x + 0.5) / width, (y + 0.5) / height);
            pixels[(y * width + x) * 4 + 3] = alpha === 0 && options.haze ? 1 + ((x * 7 + y * 13) % 4) : alpha;
          }
        }
      }
      const result = new PhotonImage(pixels, width, height);
      const png = new Uint8Array(result.get_bytes());
      result.free();
      return {
        response: () => new Response(png, { headers: { "content-type": "image/png" } }),
        contentType: () => "image/png",
        image: () => new Response(png).body!,
      };
    },
  });

  const binding = {
    async info(stream: ReadableStream<Uint8Array>) {
      const bytes = await readAll(stream);
      const image = PhotonImage.new_from_byteslice(bytes);
      const info = {
        format: "image/png",
        fileSize: bytes.length,
        width: image.get_width(),
        height: image.get_height(),
      };
      image.free();
      return info;
    },
    input(stream: ReadableStream<Uint8Array>) {
      const call: FakeImagesCall = { transforms: [], output: null, inputBytes: 0 };
      calls.push(call);
      return transformer(readAll(stream), call);
    },
    text() {
      throw new Error("fake Images: text() is not used by Remove Background");
    },
    get hosted(): HostedImagesBinding {
      throw new Error("fake Images: hosted images are not used by Remove Background");
    },
  } satisfies ImagesBinding;

  return { binding, calls };
}
