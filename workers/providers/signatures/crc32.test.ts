import { crc32 as nodeCrc32 } from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { crc32 } from "./crc32";

const utf8 = (text: string) => new TextEncoder().encode(text);

describe("crc32", () => {
  it.each([
    ["123456789", 0xcbf43926], // the standard check value, 3421780262
    ["", 0],
    ["The quick brown fox jumps over the lazy dog", 0x414fa339],
    // Multi-byte UTF-8 (₹ is 3 bytes, é is 2): PayPal's CRC is over bytes, not UTF-16 code units.
    ["₹170.00 café", 3924252669],
  ])("matches the published value for %j", (text, expected) => {
    expect(crc32(utf8(text))).toBe(expected);
  });

  it("returns unsigned values, including for a result with the top bit set", () => {
    expect(crc32(new Uint8Array([0xff, 0xff, 0xff, 0xff]))).toBe(0xffffffff);
    expect(crc32(new Uint8Array([0]))).toBe(3523407757);
    expect(crc32(utf8("123456789"))).toBeGreaterThan(2 ** 31);
  });

  it("agrees with node:zlib's crc32 on arbitrary bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2048 }), (bytes) => {
        expect(crc32(bytes)).toBe(nodeCrc32(bytes));
      }),
      { numRuns: 300 },
    );
  });
});
