import { describe, expect, it } from "vitest";
import { fakeMediaByte, fakeMediaBytes, fakeMediaResponse } from "./fake-media";

const get = (range?: string) => new Request("https://cdn.example/file", range ? { headers: { range } } : undefined);

/** CRC-32 (PNG's), to check each chunk as a decoder does. */
function crc32(bytes: Uint8Array): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

/** The PNG's chunks up to IEND, each CRC checked; throws on anything a decoder would refuse. */
function pngChunks(bytes: Uint8Array): { type: string; data: Uint8Array }[] {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (!signature.every((byte, index) => bytes[index] === byte)) throw new Error("no PNG signature");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const chunks: { type: string; data: Uint8Array }[] = [];
  for (let offset = 8; ;) {
    const length = view.getUint32(offset);
    const typed = bytes.subarray(offset + 4, offset + 8 + length);
    if (crc32(typed) !== view.getUint32(offset + 8 + length)) throw new Error("bad CRC");
    const type = new TextDecoder().decode(typed.subarray(0, 4));
    chunks.push({ type, data: typed.subarray(4) });
    offset += 12 + length;
    if (type === "IEND") return chunks;
  }
}

describe("fakeMediaResponse", () => {
  it("serves a video's bytes as fakeMediaByte computes them, whole and by range", async () => {
    const file = { seed: "/v/clip.mp4", size: 5000, mimeType: "video/mp4" };
    const whole = new Uint8Array(await fakeMediaResponse(get(), file).arrayBuffer());
    expect(whole).toEqual(fakeMediaBytes(file.seed, 0, file.size));
    expect(whole[0]).toBe(fakeMediaByte(file.seed, 0));
    const part = fakeMediaResponse(get("bytes=10-19"), file);
    expect(part.status).toBe(206);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(fakeMediaBytes(file.seed, 10, 20));
  });

  it.each(["image/jpeg", "image/png", "image/webp", "image/gif"])(
    "serves an %s file that a browser can show: a whole PNG at its start, the rest of its size after",
    async (mimeType) => {
      const file = { seed: "/media/picture", size: 4096, mimeType };
      const response = fakeMediaResponse(get(), file);
      expect(response.headers.get("content-type")).toBe(mimeType);
      const bytes = new Uint8Array(await response.arrayBuffer());
      expect(bytes).toHaveLength(file.size);
      expect(bytes).toEqual(fakeMediaBytes(file.seed, 0, file.size, mimeType));
      const chunks = pngChunks(bytes);
      expect(chunks.map((chunk) => chunk.type)).toEqual(["IHDR", "IDAT", "IEND"]);
      const header = new DataView(chunks[0]!.data.buffer, chunks[0]!.data.byteOffset);
      expect([header.getUint32(0), header.getUint32(4)]).toEqual([16, 9]);
      // A range is the same file's bytes.
      const part = fakeMediaResponse(get("bytes=4-11"), file);
      expect(new Uint8Array(await part.arrayBuffer())).toEqual(bytes.subarray(4, 12));
    },
  );
});
