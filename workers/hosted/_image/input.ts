/**
 * Every image API takes its image the same three ways: a multipart file, a base64 data URL in
 * JSON, or a URL we fetch through the SSRF guard (`ctx.fetchUrl`). This module holds the zod
 * pieces for those inputs and turns any of them into checked, decoded pixels.
 *
 * How inputs arrive: the gateway parses a JSON body as is, and a multipart form into an object
 * whose file fields are `File` objects and whose other fields are strings (a repeated field
 * becomes an array). So file fields accept `z.instanceof(File)`, numeric fields go through
 * `numberFromText` and structured fields (lists, objects) through `jsonFromText`, which parse
 * the form's strings and leave JSON values untouched.
 */
import { PhotonImage } from "@cf-wasm/photon/workerd";
import { z } from "zod";
import { problemResult, UrlInputError, type OperationContext } from "~workers/hosted/definition";
import { base64ToBytes } from "./base64";
import { MAX_DATA_URL_LENGTH, MAX_IMAGE_BYTES, MAX_SIDE, MAX_URL_LENGTH } from "./limits";
import { failure, success, type Outcome } from "./outcome";
import { detectFormat, readImageHeader, SUPPORTED_FORMATS_TEXT, type ImageHeader } from "./sniff";

const MAX_MB = MAX_IMAGE_BYTES / (1024 * 1024);

export const ImageFileSchema = z
  .instanceof(File, { message: "Expected an image file." })
  .refine((file) => file.size > 0, "The uploaded file is empty.")
  .refine((file) => file.size <= MAX_IMAGE_BYTES, `An image may be at most ${MAX_MB} MB.`);

export const DATA_URL_PREFIX = /^data:[^,;]*(?:;[^,;]*)*;base64,/i;

export const ImageDataUrlSchema = z
  .string()
  .max(MAX_DATA_URL_LENGTH, `An image may be at most ${MAX_MB} MB.`)
  .regex(DATA_URL_PREFIX, "An image sent as text must be a base64 data URL (`data:image/png;base64,…`).");

/** An uploaded file (multipart) or a base64 data URL (JSON). */
export const ImageSourceSchema = z
  .union([ImageFileSchema, ImageDataUrlSchema])
  .describe(
    `The image: a file field in a multipart form, or a base64 data URL in JSON. ${SUPPORTED_FORMATS_TEXT}, up to ${MAX_MB} MB and ${MAX_SIDE}×${MAX_SIDE} pixels; the type is read from the bytes.`,
  );

export const ImageUrlSchema = z
  .string()
  .trim()
  .min(1)
  .max(MAX_URL_LENGTH)
  .describe(`An http(s) URL of the image, fetched by us (public addresses only, up to ${MAX_MB} MB).`);

/** The `image` / `url` pair each single-image API puts in its input object. */
export const imageInputShape = {
  image: ImageSourceSchema.optional(),
  url: ImageUrlSchema.optional(),
};

export const ONE_IMAGE_MESSAGE = "Send exactly one of `image` (a file or a data URL) or `url`.";

/** For `.refine` on an object built from `imageInputShape`. */
export const hasExactlyOneImage = (value: { image?: unknown; url?: unknown }): boolean =>
  (value.image === undefined) !== (value.url === undefined);

/** Multipart sends structured fields as JSON text; JSON bodies send them as values. */
export const jsonFromText = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => {
    if (typeof value !== "string") return value;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value; // let the schema say what was expected
    }
  }, schema);

/** Multipart sends numbers as text; JSON bodies send them as numbers. */
export const numberFromText = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => {
    if (typeof value !== "string" || value.trim() === "") return value;
    const number = Number(value);
    return Number.isFinite(number) ? number : value;
  }, schema);

const invalid = (detail: string) => failure(problemResult("invalid-input", detail));

export type ImageSource = File | string;

/** A byte bound and what to tell the caller who passes it. */
export interface ByteLimit {
  maxBytes: number;
  message: string;
}

const ONE_IMAGE_LIMIT: ByteLimit = { maxBytes: MAX_IMAGE_BYTES, message: `An image may be at most ${MAX_MB} MB.` };

/**
 * The bytes of one image input, bounded (10 MB unless a caller with several images passes
 * what is left of its total); nothing is decoded yet.
 */
export async function loadImageBytes(
  source: { image?: ImageSource | undefined; url?: string | undefined },
  ctx: OperationContext,
  limit: ByteLimit = ONE_IMAGE_LIMIT,
): Promise<Outcome<Uint8Array>> {
  if (source.image instanceof File) {
    if (source.image.size > limit.maxBytes) return invalid(limit.message);
    return success(new Uint8Array(await source.image.arrayBuffer()));
  }
  if (typeof source.image === "string") return decodeDataUrl(source.image, limit);
  if (source.url !== undefined) return fetchImageBytes(source.url, ctx, limit.maxBytes);
  return invalid(ONE_IMAGE_MESSAGE);
}

export function decodeDataUrl(dataUrl: string, limit: ByteLimit = ONE_IMAGE_LIMIT): Outcome<Uint8Array> {
  const prefix = DATA_URL_PREFIX.exec(dataUrl);
  if (!prefix) return invalid("An image sent as text must be a base64 data URL (`data:image/png;base64,…`).");
  if (dataUrl.length > MAX_DATA_URL_LENGTH) return invalid(ONE_IMAGE_LIMIT.message);
  const bytes = base64ToBytes(dataUrl.slice(prefix[0].length));
  if (!bytes) return invalid("The data URL's base64 is not valid.");
  if (bytes.length > limit.maxBytes) return invalid(limit.message);
  return success(bytes);
}

async function fetchImageBytes(url: string, ctx: OperationContext, maxBytes: number): Promise<Outcome<Uint8Array>> {
  try {
    const fetched = await ctx.fetchUrl(url, { maxBytes, accept: "image/*" });
    return success(fetched.bytes);
  } catch (error) {
    // The guard's refusals (private address, bad scheme, too large, HTTP error) are the
    // caller's to fix; anything else is our resolver failing, which the caller can only retry.
    if (error instanceof UrlInputError) return invalid(error.message);
    return failure(problemResult("service-unavailable", "The image URL could not be looked up right now; try again."));
  }
}

/** Format and size from the bytes, refusing anything that is not a supported image. */
export function identifyImage(bytes: Uint8Array): Outcome<ImageHeader> {
  if (bytes.length === 0) return invalid("The image is empty.");
  const format = detectFormat(bytes);
  if (!format) {
    return invalid(
      `That is not an image: expected ${SUPPORTED_FORMATS_TEXT} (the type is read from the file's bytes).`,
    );
  }
  const header = readImageHeader(bytes, format);
  if (!header) return invalid(`The file starts like a ${format.toUpperCase()} but is not an image we can read.`);
  return success(header);
}

const tooLarge = (width: number, height: number) =>
  invalid(`The image is ${width}×${height} pixels; images may be at most ${MAX_SIDE} pixels on each side.`);

/** Refuses, from the header alone, an image too large to decode. */
export function checkDecodableSize(header: ImageHeader): Outcome<ImageHeader> {
  return header.width > MAX_SIDE || header.height > MAX_SIDE ? tooLarge(header.width, header.height) : success(header);
}

/**
 * Decodes with photon. Its decoder panics (a WebAssembly trap) on data it cannot read; the
 * instance survives the trap, so the panic is caught and answered as unreadable input.
 */
export function decodeImage(bytes: Uint8Array, header: ImageHeader): Outcome<PhotonImage> {
  const size = checkDecodableSize(header);
  if (!size.ok) return size;
  let image: PhotonImage;
  try {
    image = PhotonImage.new_from_byteslice(bytes);
  } catch {
    return invalid(
      "That is not an image we can read: the file is damaged or uses an unsupported variant of its format.",
    );
  }
  // A header can understate the real frame size; the limit is about what was decoded.
  const [width, height] = [image.get_width(), image.get_height()];
  if (width > MAX_SIDE || height > MAX_SIDE) {
    image.free();
    return tooLarge(width, height);
  }
  return success(image);
}

export interface LoadedImage {
  bytes: Uint8Array;
  header: ImageHeader;
  /** Owned by the caller, who must `free()` it. */
  image: PhotonImage;
}

/** Any image input form, all the way to decoded pixels. */
export async function loadImage(
  source: { image?: ImageSource | undefined; url?: string | undefined },
  ctx: OperationContext,
): Promise<Outcome<LoadedImage>> {
  const bytes = await loadImageBytes(source, ctx);
  if (!bytes.ok) return bytes;
  const header = identifyImage(bytes.value);
  if (!header.ok) return header;
  const image = decodeImage(bytes.value, header.value);
  if (!image.ok) return image;
  return success({ bytes: bytes.value, header: header.value, image: image.value });
}
