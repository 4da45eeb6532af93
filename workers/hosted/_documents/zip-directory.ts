/**
 * A ZIP's central directory, read from its bytes: the names, flags, methods, sizes and local
 * offsets of its entries. Both sides of a document ZIP read it, the API to sniff a DOCX (does it
 * name `word/document.xml`?) and the engine to inflate its parts, so there is one walk; it has
 * no dependencies, so the engine Worker can import it.
 */
export interface ZipDirectoryEntry {
  name: string;
  /** General-purpose flags (bit 0: encrypted). */
  flags: number;
  /** 0 stored, 8 deflated. */
  method: number;
  compressedSize: number;
  /** Where the entry's local header starts. */
  localOffset: number;
}

export interface ZipDirectory {
  entries: ZipDirectoryEntry[];
  /** False when the directory broke off before the count its end record gives (a damaged or cut file). */
  complete: boolean;
}

const END_RECORD = 0x06054b50;
const CENTRAL_HEADER = 0x02014b50;
/** The end record is 22 bytes and may be followed by a comment of up to 64 KiB. */
const END_RECORD_SEARCH = 22 + 0xffff;

/** The central directory, or null where there is no end record to find it by. */
export function readZipDirectory(bytes: Uint8Array): ZipDirectory | null {
  if (bytes.length < 22) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - END_RECORD_SEARCH); at--) {
    if (view.getUint32(at, true) === END_RECORD) {
      end = at;
      break;
    }
  }
  if (end < 0) return null;
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const entries: ZipDirectoryEntry[] = [];
  const decoder = new TextDecoder();
  for (let index = 0; index < count; index++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== CENTRAL_HEADER) return { entries, complete: false };
    const nameLength = view.getUint16(at + 28, true);
    if (at + 46 + nameLength > bytes.length) return { entries, complete: false };
    entries.push({
      name: decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength)),
      flags: view.getUint16(at + 8, true),
      method: view.getUint16(at + 10, true),
      compressedSize: view.getUint32(at + 20, true),
      localOffset: view.getUint32(at + 42, true),
    });
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return { entries, complete: true };
}
