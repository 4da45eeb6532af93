/**
 * A DOCX's text as lines: word/document.xml's paragraphs in order, with their style (the style's
 * name from styles.xml, since Word localises style ids: a German Word writes "berschrift1"),
 * whether they are bold and their size. Tables are read cell by cell, row by row, so the common
 * two-column layout (one row: a sidebar cell and a main cell) reads a column at a time.
 * Text boxes' paragraphs are read where they are anchored; `mc:Fallback` copies are skipped.
 *
 * The XML is tokenised with one regular expression: WordprocessingML has no DTD, and the
 * parser needs only elements, attributes and text.
 */
import type { DocumentFailure } from "~workers/hosted/capabilities";
import { capLine, MAX_LINES, squash, tooManyLines, type DocumentLines, type Line } from "./lines";
import { headingKind } from "./sections";
import { readZipEntries } from "./zip";

/** Inflated bytes read from one DOCX at most; beyond it the file is refused as a zip bomb. */
export const MAX_INFLATED_BYTES = 20 * 1024 * 1024;

const DOCUMENT = "word/document.xml";
const STYLES = "word/styles.xml";

interface Style {
  name: string;
  basedOn?: string;
  bold?: boolean;
  size?: number;
}

interface Paragraph {
  runs: { text: string; bold: boolean; size: number }[];
  style?: string;
  listItem: boolean;
  /** Run properties being read for the next text. */
  bold?: boolean;
  size?: number;
  column: number;
  /** Which table cell holds the paragraph (0: none). */
  cell: number;
}

export function readDocxLines(bytes: Uint8Array): { ok: true; value: DocumentLines } | DocumentFailure {
  const read = readZipEntries(bytes, [DOCUMENT, STYLES], MAX_INFLATED_BYTES);
  if (!read.ok) {
    const detail = {
      malformed: "The DOCX archive is damaged or not a Word document.",
      "too-large": `The DOCX inflates to more than ${MAX_INFLATED_BYTES / 1024 / 1024} MB of text: refused as a zip bomb.`,
      encrypted: "The DOCX is encrypted; send it without the protection.",
    }[read.reason];
    return { ok: false, problem: "unreadable-document", detail, extensions: { reason: read.reason } };
  }
  const document = read.files.get(DOCUMENT);
  if (!document)
    return {
      ok: false,
      problem: "unreadable-document",
      detail: "The DOCX has no word/document.xml.",
      extensions: { reason: "malformed" },
    };
  const decoder = new TextDecoder();
  const styles = readStyles(read.files.has(STYLES) ? decoder.decode(read.files.get(STYLES)) : "");
  const lines = readParagraphs(withoutUnterminated(decoder.decode(document)), styles);
  if (!lines) return tooManyLines("The DOCX");
  let columns = 1;
  for (const line of lines) columns = Math.max(columns, line.column + 1);
  // A DOCX has no pages until Word lays it out: its count is not guessed.
  return { ok: true, value: { lines, pages: null, columns } };
}

/**
 * The XML up to its first comment, processing instruction or CDATA section that never ends. The
 * tokeniser would look for the end of each such opener through the rest of the text, and a file
 * of millions of `<!--` would cost the square of its length; past an unterminated one there is
 * no well-formed XML to read anyway.
 */
function withoutUnterminated(xml: string): string {
  let end = xml.length;
  for (const [open, close] of [
    ["<!--", "-->"],
    ["<?", "?>"],
    ["<![CDATA[", "]]>"],
  ] as const) {
    const lastClose = xml.lastIndexOf(close);
    const stray = xml.indexOf(open, lastClose < 0 ? 0 : lastClose);
    if (stray >= 0) end = Math.min(end, stray);
  }
  return end === xml.length ? xml : xml.slice(0, end);
}

const TOKEN =
  /<(\/?)([\w:.-]+)((?:\s+[\w:.-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!\[CDATA\[([\s\S]*?)\]\]>|([^<]+)/g;

function attribute(attributes: string, name: string): string | undefined {
  const match = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(attributes);
  return match ? decodeEntities(match[1] ?? match[2] ?? "") : undefined;
}

/** A character reference's character; one past Unicode's last (`&#x110000;`) is U+FFFD, as XML readers show it. */
function codePoint(value: number): string {
  return value > 0 && value <= 0x10ffff ? String.fromCodePoint(value) : value === 0 ? " " : "\ufffd";
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, entity: string) => {
    const lower = entity.toLowerCase();
    if (lower.startsWith("#x")) return codePoint(Number.parseInt(lower.slice(2), 16));
    if (lower.startsWith("#")) return codePoint(Number(lower.slice(1)));
    return { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" }[lower] ?? "";
  });
}

/** `w:val` as a boolean toggle: absent, "true", "1" or "on" mean on. */
const toggle = (attributes: string) => !/^(?:false|0|off|none)$/i.test(attribute(attributes, "w:val") ?? "true");

function readStyles(xml: string): Map<string, Style> {
  const styles = new Map<string, Style>();
  let current: Style | undefined;
  let id = "";
  let inRunProps = false;
  for (const match of xml.matchAll(TOKEN)) {
    const [, closing, tag, attributes = ""] = match;
    if (!tag) continue;
    if (tag === "w:style" && !closing) {
      id = attribute(attributes, "w:styleId") ?? "";
      current = { name: id };
      styles.set(id, current);
    } else if (tag === "w:style" && closing) current = undefined;
    else if (!current) continue;
    else if (tag === "w:name") current.name = attribute(attributes, "w:val") ?? id;
    else if (tag === "w:basedOn") current.basedOn = attribute(attributes, "w:val");
    else if (tag === "w:rPr") inRunProps = !closing && !match[4];
    else if (inRunProps && tag === "w:b") current.bold = toggle(attributes);
    else if (inRunProps && tag === "w:sz") current.size = Number(attribute(attributes, "w:val")) / 2 || undefined;
  }
  return styles;
}

/** A style's effective bold and size, following `basedOn` (a few levels at most). */
function resolveStyle(
  styles: Map<string, Style>,
  id: string | undefined,
): { name: string; bold: boolean; size: number } {
  let bold: boolean | undefined;
  let size: number | undefined;
  let name = "";
  let style = id ? styles.get(id) : styles.get("Normal");
  for (let depth = 0; style && depth < 8; depth++) {
    if (!name) name = style.name;
    bold ??= style.bold;
    size ??= style.size;
    style = style.basedOn ? styles.get(style.basedOn) : undefined;
  }
  return { name: name.toLowerCase(), bold: bold ?? false, size: size ?? 0 };
}

/** The paragraphs as lines; null when there are more than MAX_LINES. */
function readParagraphs(xml: string, styles: Map<string, Style>): Line[] | null {
  const lines: Line[] = [];
  const open: Paragraph[] = [];
  /** Per open table: the index of the cell being read in its current row. */
  const cells: number[] = [];
  let skipDepth = 0;
  let inText = false;
  let inRunProps = false;
  let inParagraphProps = false;

  const column = () => Math.max(0, cells.at(-1) ?? 0);
  /** Per open table: the id of the cell being read, and its cells so far; each line's cell. */
  const cellIds: number[] = [];
  let nextCell = 1;
  const lineCells: number[] = [];
  const cellsOfTable: number[][] = [];
  /** Every table's cells, by the order the tables closed. */
  const layoutTables: number[][] = [];
  let tooMany = false;
  const flush = (paragraph: Paragraph) => {
    const style = resolveStyle(styles, paragraph.style);
    const text = paragraph.runs.map((r) => r.text).join("");
    // What the paragraph looks like, once: its breaks (w:br) make lines that share it.
    let runSize = 0;
    let boldChars = 0;
    let allChars = 0;
    for (const run of paragraph.runs) {
      if (!run.text.trim()) continue;
      runSize = Math.max(runSize, run.size);
      allChars += run.text.length;
      if (run.bold) boldChars += run.text.length;
    }
    const styled = /^title$/.test(style.name)
      ? "title"
      : /^(heading|überschrift|titre|título)\s*\d/.test(style.name)
        ? "heading"
        : undefined;
    for (const piece of text.split("\n")) {
      const parts = piece
        .split("\t")
        .map((part) => capLine(squash(part)))
        .filter(Boolean);
      if (!parts.length) continue;
      if (lines.length >= MAX_LINES) {
        tooMany = true;
        return;
      }
      lineCells.push(paragraph.cell);
      lines.push({
        text: capLine(parts.join(" ")),
        parts,
        page: 1,
        x: 0,
        y: lines.length,
        fontSize: runSize || style.size,
        bold: allChars > 0 && boldChars > allChars / 2,
        column: paragraph.column,
        ...(styled ? { styled } : {}),
        ...(paragraph.listItem ? { listItem: true } : {}),
      });
    }
  };

  for (const match of xml.matchAll(TOKEN)) {
    const [, closing, tag, attributes = "", selfClosing, cdata, text] = match;
    if (skipDepth) {
      if (tag === "mc:Fallback") skipDepth += closing ? -1 : selfClosing ? 0 : 1;
      continue;
    }
    const paragraph = open.at(-1);
    if (text !== undefined || cdata !== undefined) {
      if (inText && paragraph) {
        const style = resolveStyle(styles, paragraph.style);
        paragraph.runs.push({
          text: cdata ?? decodeEntities(text!),
          bold: paragraph.bold ?? style.bold,
          size: paragraph.size ?? style.size,
        });
      }
      continue;
    }
    if (!tag) continue;
    switch (tag) {
      case "mc:Fallback":
        if (!closing && !selfClosing) skipDepth = 1;
        break;
      case "w:p":
        if (selfClosing) break;
        if (!closing) open.push({ runs: [], listItem: false, column: column(), cell: cellIds.at(-1) ?? 0 });
        else {
          const done = open.pop();
          if (done) flush(done);
          if (tooMany) return null;
        }
        break;
      case "w:pPr":
        inParagraphProps = !closing && !selfClosing;
        break;
      case "w:pStyle":
        if (paragraph && inParagraphProps) paragraph.style = attribute(attributes, "w:val");
        break;
      case "w:numPr":
        if (paragraph && inParagraphProps) paragraph.listItem = true;
        break;
      case "w:r":
        if (paragraph && !closing) {
          paragraph.bold = undefined;
          paragraph.size = undefined;
        }
        break;
      case "w:rPr":
        inRunProps = !closing && !selfClosing && !inParagraphProps;
        break;
      case "w:b":
        if (paragraph && inRunProps) paragraph.bold = toggle(attributes);
        break;
      case "w:sz":
        if (paragraph && inRunProps) paragraph.size = Number(attribute(attributes, "w:val")) / 2 || undefined;
        break;
      case "w:t":
        inText = !closing && !selfClosing;
        break;
      case "w:tab":
        if (paragraph && !inParagraphProps) paragraph.runs.push({ text: "\t", bold: false, size: 0 });
        break;
      case "w:br":
      case "w:cr":
        if (paragraph) paragraph.runs.push({ text: "\n", bold: false, size: 0 });
        break;
      case "w:noBreakHyphen":
        if (paragraph) paragraph.runs.push({ text: "-", bold: false, size: 0 });
        break;
      case "w:tbl":
        if (selfClosing) break;
        if (!closing) {
          cells.push(-1);
          cellIds.push(0);
          cellsOfTable.push([]);
        } else {
          cells.pop();
          cellIds.pop();
          layoutTables.push(cellsOfTable.pop() ?? []);
        }
        break;
      case "w:tr":
        if (!closing && !selfClosing && cells.length) cells[cells.length - 1] = -1;
        break;
      case "w:tc":
        if (!closing && !selfClosing && cells.length) {
          cells[cells.length - 1]! += 1;
          cellIds[cellIds.length - 1] = nextCell;
          cellsOfTable.at(-1)?.push(nextCell++);
        }
        break;
    }
  }
  // A table whose cells hold section headings lays out the page (a sidebar cell beside the
  // main cell): each cell is a column. Other tables hold data (a date beside each job, a German
  // Lebenslauf's rows) and are read row by row within the column around them.
  const tableOfCell = new Map<number, number>();
  layoutTables.forEach((tableCells, table) => tableCells.forEach((cell) => tableOfCell.set(cell, table)));
  const layout = new Set<number>();
  lines.forEach((line, index) => {
    const table = tableOfCell.get(lineCells[index]!);
    if (table !== undefined && headingKind(line)) layout.add(table);
  });
  lines.forEach((line, index) => {
    const table = tableOfCell.get(lineCells[index]!);
    if (table === undefined || !layout.has(table)) line.column = 0;
  });
  return lines;
}
