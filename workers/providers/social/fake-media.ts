/**
 * Media bytes for the platforms' fakes: a deterministic body of the fixture's size (so a test
 * can check every byte that reached it through the tunnel), served as a CDN serves a file:
 * `Accept-Ranges`, single `Range: bytes=a-b` / `a-` / `-n` requests answered 206 with
 * `Content-Range`, an unsatisfiable one 416, streamed in chunks rather than built whole.
 *
 * An image's file starts with a real picture (a 16×9 PNG), so the live demo's thumbnails and
 * carousel images show in a browser in development; the rest of its size follows, which a
 * decoder ignores past the PNG's IEND. It is a PNG whatever type the recorded URL names: a
 * browser picks an image's decoder by its signature, not by its Content-Type, and a recorded
 * JPEG need be no more than something to look at. Video and audio bytes are untouched.
 */

/** The byte at `offset` of the fake file named `seed`: cheap, and different for each file. */
export function fakeMediaByte(seed: string, offset: number): number {
  let hash = 2166136261;
  for (let i = 0; i < seed.length; i++) hash = Math.imul(hash ^ seed.charCodeAt(i), 16777619);
  return (Math.imul(hash ^ offset, 2654435761) >>> 24) & 0xff;
}

/** A 16×9 PNG of one colour (76 bytes, each chunk's CRC valid), the start of every fake image. */
const PICTURE = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAABAAAAAJCAIAAAC0SDtlAAAAE0lEQVR42mOwju4hCTGMahgUGgBdbaMhOCvd1wAAAABJRU5ErkJggg=="),
  (char) => char.charCodeAt(0),
);

/** Bytes `start` to `end` (exclusive) of the fake file `seed`; an image's (by `mimeType`) starts with PICTURE. */
export function fakeMediaBytes(seed: string, start: number, end: number, mimeType?: string): Uint8Array {
  const bytes = new Uint8Array(end - start);
  const picture = mimeType?.startsWith("image/") ? PICTURE : null;
  for (let i = 0; i < bytes.length; i++) {
    const offset = start + i;
    bytes[i] = picture && offset < picture.length ? (picture[offset] ?? 0) : fakeMediaByte(seed, offset);
  }
  return bytes;
}

const CHUNK = 64 * 1024;

/** A response for `request` to the fake file `seed` of `size` bytes and type `mimeType`. */
export function fakeMediaResponse(request: Request, file: { seed: string; size: number; mimeType: string }): Response {
  const headers = new Headers({ "content-type": file.mimeType, "accept-ranges": "bytes" });
  let start = 0;
  let end = file.size; // exclusive
  let status = 200;
  const range = request.headers.get("range");
  if (range) {
    const match = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
    const first = match?.[1] ? Number(match[1]) : null;
    const last = match?.[2] ? Number(match[2]) : null;
    if (match && first !== null && first < file.size && (last === null || last >= first)) {
      start = first;
      end = last === null ? file.size : Math.min(last + 1, file.size);
      status = 206;
    } else if (match && first === null && last !== null && last > 0) {
      start = Math.max(0, file.size - last);
      status = 206;
    } else {
      return new Response(null, { status: 416, headers: { "content-range": `bytes */${file.size}` } });
    }
    headers.set("content-range", `bytes ${start}-${end - 1}/${file.size}`);
  }
  headers.set("content-length", String(end - start));
  if (request.method === "HEAD") return new Response(null, { status, headers });
  let offset = start;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= end) return controller.close();
      const next = Math.min(offset + CHUNK, end);
      controller.enqueue(fakeMediaBytes(file.seed, offset, next, file.mimeType));
      offset = next;
    },
  });
  return new Response(body, { status, headers });
}
