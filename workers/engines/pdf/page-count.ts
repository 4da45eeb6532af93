/**
 * How many pages a PDF the browser printed has, without a PDF reader in the engine Worker: the
 * page tree's own `/Count`, reached as a reader reaches it (`startxref` → the xref table → the
 * trailer's `/Root` → the catalog's `/Pages` → its `/Count`). Chromium (Skia) writes a classic
 * xref table and plain object dictionaries, so only those few small slices are read, as Latin-1
 * (one character per byte, never a copy of the whole file), and a dictionary is read token by
 * token, so a string the page put in the file (its <title> becomes `/Title (…)`, a link's
 * address `/URI (…)`) can never be taken for a key. Searching the file for `/Type /Page` counted
 * those strings too. page-count.test.ts checks it against pdf.js and against such titles.
 */

/** The pages of `pdf`, or undefined when it is not laid out as Chromium writes PDFs. */
export function countPdfPages(pdf: Uint8Array): number | undefined {
  const table = readXref(pdf);
  if (!table) return undefined;
  const { offsets, trailer } = table;
  const root = reference(trailer?.get("Root"));
  const catalog = root === undefined ? undefined : readObject(pdf, offsets, root);
  const pagesRef = reference(catalog?.get("Pages"));
  const pages = pagesRef === undefined ? undefined : readObject(pdf, offsets, pagesRef);
  if (pages?.get("Type") !== "/Pages") return undefined;
  const count = Number(pages.get("Count"));
  return Number.isSafeInteger(count) && count >= 0 ? count : undefined;
}

/** The xref table's object offsets and the trailer dictionary, found from `startxref`. */
export function readXref(pdf: Uint8Array): { offsets: Map<number, number>; trailer?: Map<string, string> } | undefined {
  const tail = latin1(pdf, Math.max(0, pdf.byteLength - 1024), pdf.byteLength);
  const startxref = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail);
  if (!startxref) return undefined;
  const xrefAt = Number(startxref[1]);
  // The xref table runs to the trailer; a few thousand objects at 20 bytes each.
  const xref = latin1(pdf, xrefAt, Math.min(pdf.byteLength, xrefAt + 2 * 1024 * 1024));
  if (!xref.startsWith("xref")) return undefined;
  const trailerAt = xref.indexOf("trailer");
  if (trailerAt < 0) return undefined;
  return { offsets: xrefOffsets(xref.slice(4, trailerAt)), trailer: readDictionary(xref, xref.indexOf("<<", trailerAt)) };
}

/**
 * Where object `number`'s dictionary (`n 0 obj << … >>`) starts and ends in `pdf`, strings and
 * nested dictionaries skipped whole; a stream's data after it is never included.
 */
export function objectDictionarySpan(pdf: Uint8Array, at: number): { start: number; end: number } | undefined {
  const text = latin1(pdf, at, Math.min(pdf.byteLength, at + 64 * 1024));
  const head = /^\d+\s+\d+\s+obj\s*/.exec(text);
  if (!head || !text.startsWith("<<", head[0].length)) return undefined;
  return { start: at + head[0].length, end: at + skipNested(text, head[0].length, "<<", ">>") };
}

function latin1(bytes: Uint8Array, start: number, end: number): string {
  return new TextDecoder("latin1").decode(bytes.subarray(start, end));
}

/** Object number → byte offset, from the xref table's subsections (`first count` then entries). */
function xrefOffsets(table: string): Map<number, number> {
  const offsets = new Map<number, number>();
  const lines = table.split(/\r?\n|\r/).map((line) => line.trim());
  let next = 0;
  for (const line of lines) {
    const header = /^(\d+) (\d+)$/.exec(line);
    if (header) {
      next = Number(header[1]);
      continue;
    }
    const entry = /^(\d{10}) (\d{5}) ([nf])$/.exec(line);
    if (!entry) continue;
    if (entry[3] === "n") offsets.set(next, Number(entry[1]));
    next += 1;
  }
  return offsets;
}

function reference(value: string | undefined): number | undefined {
  const match = value === undefined ? null : /^(\d+) \d+ R$/.exec(value);
  return match ? Number(match[1]) : undefined;
}

/** The dictionary of object `number` (`n 0 obj << … >>`), its keys to their raw values. */
function readObject(pdf: Uint8Array, offsets: Map<number, number>, number: number) {
  const at = offsets.get(number);
  if (at === undefined) return undefined;
  const text = latin1(pdf, at, Math.min(pdf.byteLength, at + 64 * 1024));
  const head = new RegExp(`^${number}\\s+\\d+\\s+obj\\s*`).exec(text);
  if (!head) return undefined;
  return readDictionary(text, head[0].length);
}

/**
 * The top-level entries of the dictionary starting at `text[at]` (`<<`): each key to its value
 * as written (a name `/Pages`, a number, a reference `10 0 R`); strings, arrays and nested
 * dictionaries are skipped whole, so what they hold is never read as a key.
 */
function readDictionary(text: string, at: number): Map<string, string> | undefined {
  if (at < 0 || !text.startsWith("<<", at)) return undefined;
  const entries = new Map<string, string>();
  let i = at + 2;
  let key: string | undefined;
  let value: string[] = [];
  const flush = () => {
    if (key !== undefined) entries.set(key, value.join(" "));
    key = undefined;
    value = [];
  };
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === ">" && text[i + 1] === ">") {
      flush();
      return entries;
    } else if (c === "/") {
      const name = /^\/[^\s/<>[\]()]*/.exec(text.slice(i, i + 256))![0];
      i += name.length;
      if (key === undefined) key = name.slice(1);
      else if (value.length === 0) {
        value.push(name);
        flush();
      } else {
        flush();
        key = name.slice(1);
      }
    } else if (c === "(") {
      i = skipString(text, i);
      value.push("(string)");
    } else if (c === "<" && text[i + 1] === "<") {
      i = skipNested(text, i, "<<", ">>");
      value.push("<<dict>>");
    } else if (c === "<") {
      i = text.indexOf(">", i) + 1 || text.length;
      value.push("<hex>");
    } else if (c === "[") {
      i = skipNested(text, i, "[", "]");
      value.push("[array]");
    } else {
      const token = /^[^\s/<>[\]()]+/.exec(text.slice(i, i + 64))?.[0] ?? c;
      i += token.length;
      value.push(token);
    }
  }
  return undefined;
}

/** Past a literal string's closing parenthesis, minding `\` escapes and balanced parentheses. */
function skipString(text: string, at: number): number {
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") i++;
    else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return i + 1;
  }
  return text.length;
}

function skipNested(text: string, at: number, open: string, close: string): number {
  let depth = 0;
  let i = at;
  while (i < text.length) {
    if (text[i] === "(") {
      i = skipString(text, i);
    } else if (text.startsWith(open, i)) {
      depth++;
      i += open.length;
    } else if (text.startsWith(close, i)) {
      i += close.length;
      if (--depth === 0) return i;
    } else i++;
  }
  return text.length;
}
