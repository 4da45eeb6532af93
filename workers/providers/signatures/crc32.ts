/**
 * CRC-32 (IEEE 802.3: reflected polynomial 0xEDB88320, initial value and final XOR 0xFFFFFFFF),
 * the checksum PayPal puts in the signed webhook message in place of the body itself.
 */

// One entry per byte value: the CRC of that byte alone, so the main loop handles 8 bits per step.
const TABLE: Uint32Array = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let bit = 0; bit < 8; bit++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  return table;
})();

/** The CRC-32 of `bytes` as an unsigned 32-bit integer (0 to 4294967295). */
export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    // The index is always 0..255, so the lookup cannot miss; `?? 0` only satisfies noUncheckedIndexedAccess.
    crc = (TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  }
  // `>>> 0` turns JavaScript's signed 32-bit result back into the unsigned value PayPal prints in decimal.
  return (crc ^ 0xffffffff) >>> 0;
}
