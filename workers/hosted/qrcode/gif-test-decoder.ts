/**
 * Test-only GIF reader, written here from the GIF89a specification so the QR code's GIF output
 * is checked by code that shares nothing with the encoder (gifenc) that wrote it. It reads the
 * first image of a file: header, logical screen, colour tables, the graphic control extension's
 * transparent index, LZW-compressed indices (variable code width, clear and end codes) and
 * interlaced row order. Production code never imports this file.
 */

export interface GifImage {
  width: number;
  height: number;
  /** RGBA, straight alpha; a pixel using the transparent index has alpha 0. */
  pixels: Uint8ClampedArray;
  /** Entries of the colour table the image used. */
  paletteSize: number;
}

function colourTable(bytes: Uint8Array, offset: number, packed: number): { table: Uint8Array; next: number } {
  const entries = 2 << (packed & 0x07);
  return { table: bytes.subarray(offset, offset + entries * 3), next: offset + entries * 3 };
}

/** Data sub-blocks (a length byte, then that many bytes) up to the zero-length terminator. */
function readSubBlocks(bytes: Uint8Array, start: number): { data: Uint8Array; next: number } {
  const parts: number[] = [];
  let offset = start;
  for (;;) {
    const length = bytes[offset];
    if (length === undefined) throw new Error("GIF: data blocks run past the end");
    offset += 1;
    if (length === 0) break;
    for (let index = 0; index < length; index += 1) parts.push(bytes[offset + index] ?? 0);
    offset += length;
  }
  return { data: Uint8Array.from(parts), next: offset };
}

/** GIF's LZW: codes packed least-significant bit first, width growing up to 12 bits. */
function lzwDecode(data: Uint8Array, minimumCodeSize: number, pixelCount: number): Uint8Array {
  const clear = 1 << minimumCodeSize;
  const end = clear + 1;
  const output = new Uint8Array(pixelCount);
  let written = 0;
  let dictionary: number[][] = [];
  const reset = () => {
    dictionary = [];
    for (let code = 0; code < clear; code += 1) dictionary.push([code]);
    dictionary.push([], []);
  };
  reset();
  let codeSize = minimumCodeSize + 1;
  let previous: number[] | null = null;
  let bitPosition = 0;
  const totalBits = data.length * 8;
  while (bitPosition + codeSize <= totalBits) {
    let code = 0;
    for (let bit = 0; bit < codeSize; bit += 1) {
      const position = bitPosition + bit;
      if (((data[position >> 3] ?? 0) >> (position & 7)) & 1) code |= 1 << bit;
    }
    bitPosition += codeSize;
    if (code === clear) {
      reset();
      codeSize = minimumCodeSize + 1;
      previous = null;
      continue;
    }
    if (code === end) break;
    let entry: number[];
    if (code < dictionary.length) entry = dictionary[code] as number[];
    else if (code === dictionary.length && previous) entry = [...previous, previous[0] as number];
    else throw new Error(`GIF: LZW code ${code} out of order`);
    for (const index of entry) if (written < pixelCount) output[written++] = index;
    if (previous && dictionary.length < 4096) dictionary.push([...previous, entry[0] as number]);
    previous = entry;
    if (dictionary.length === 1 << codeSize && codeSize < 12) codeSize += 1;
  }
  if (written !== pixelCount) throw new Error(`GIF: ${written} of ${pixelCount} pixels in the data`);
  return output;
}

/** Interlaced GIFs store rows in four passes: every 8th from 0, every 8th from 4, every 4th from 2, every 2nd from 1. */
function interlacedRowOrder(height: number): number[] {
  const rows: number[] = [];
  for (const [start, step] of [
    [0, 8],
    [4, 8],
    [2, 4],
    [1, 2],
  ] as const) {
    for (let row = start; row < height; row += step) rows.push(row);
  }
  return rows;
}

export function decodeGif(bytes: Uint8Array): GifImage {
  const signature = String.fromCharCode(...bytes.subarray(0, 6));
  if (signature !== "GIF89a" && signature !== "GIF87a") throw new Error(`not a GIF: ${JSON.stringify(signature)}`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const screenPacked = bytes[10] ?? 0;
  let offset = 13;
  let globalTable: Uint8Array | null = null;
  if (screenPacked & 0x80) {
    const read = colourTable(bytes, offset, screenPacked);
    globalTable = read.table;
    offset = read.next;
  }
  let transparentIndex: number | null = null;
  for (;;) {
    const introducer = bytes[offset];
    if (introducer === 0x21) {
      const label = bytes[offset + 1];
      if (label === 0xf9) {
        const packed = bytes[offset + 3] ?? 0;
        if (packed & 0x01) transparentIndex = bytes[offset + 6] ?? 0;
      }
      offset = readSubBlocks(bytes, offset + 2).next;
      continue;
    }
    if (introducer !== 0x2c) throw new Error(`GIF: no image (block 0x${(introducer ?? 0).toString(16)})`);
    const width = view.getUint16(offset + 5, true);
    const height = view.getUint16(offset + 7, true);
    const packed = bytes[offset + 9] ?? 0;
    offset += 10;
    let table = globalTable;
    if (packed & 0x80) {
      const read = colourTable(bytes, offset, packed);
      table = read.table;
      offset = read.next;
    }
    if (!table) throw new Error("GIF: image without a colour table");
    const minimumCodeSize = bytes[offset] ?? 0;
    const { data } = readSubBlocks(bytes, offset + 1);
    const indices = lzwDecode(data, minimumCodeSize, width * height);
    const rows = packed & 0x40 ? interlacedRowOrder(height) : Array.from({ length: height }, (_, row) => row);
    const pixels = new Uint8ClampedArray(width * height * 4);
    rows.forEach((row, storedRow) => {
      for (let column = 0; column < width; column += 1) {
        const index = indices[storedRow * width + column] ?? 0;
        const target = (row * width + column) * 4;
        pixels[target] = table[index * 3] ?? 0;
        pixels[target + 1] = table[index * 3 + 1] ?? 0;
        pixels[target + 2] = table[index * 3 + 2] ?? 0;
        pixels[target + 3] = index === transparentIndex ? 0 : 255;
      }
    });
    return { width, height, pixels, paletteSize: table.length / 3 };
  }
}
