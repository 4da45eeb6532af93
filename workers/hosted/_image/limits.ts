/**
 * Size limits shared by the image APIs. They exist for the isolate's 128 MB memory: a decoded
 * image costs 4 bytes a pixel in photon's WebAssembly memory and again when copied out to
 * JavaScript, so a 4096×4096 image (64 MiB RGBA) is the largest we can safely hold.
 */

/** Largest image file accepted, whether uploaded, sent as a data URL or fetched from a URL. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/** Largest width or height an image may have when decoded, and any image we produce. */
export const MAX_SIDE = 4096;

/**
 * A data URL carrying MAX_IMAGE_BYTES: base64 grows bytes by 4/3, plus room for the
 * `data:image/png;base64,` prefix.
 */
export const MAX_DATA_URL_LENGTH = Math.ceil(MAX_IMAGE_BYTES / 3) * 4 + 256;

/**
 * Request body bound for an operation taking one image: a 10 MB upload in a multipart form
 * fits in 12 MiB, but the same file as a base64 data URL in JSON is ~13.4 MB, so 14 MiB.
 */
export const SINGLE_IMAGE_BODY_BYTES = 14 * 1024 * 1024;

/** Longest URL accepted as an image address. */
export const MAX_URL_LENGTH = 2048;
