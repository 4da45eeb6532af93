/**
 * HTML as pdfmake content: linkedom parses it, we bound and clean the tree, html-to-pdfmake
 * converts it, and we fit the result to the fonts and scale we have.
 *
 * What a browser would do and this does not: only the page's <style> elements are applied
 * (stylesheet.ts says how far), not <link>ed style sheets; no script runs; flex and grid lay
 * out as plain blocks; padding is ignored; a block's background colour shows behind its text
 * runs only (table cells are filled whole).
 */
import htmlToPdfmake from "html-to-pdfmake";
import { parseHTML } from "linkedom";
import { applyStyleRules, mediaApplies, parseStyleSheet } from "./stylesheet";

export const DOCUMENT_LIMITS = {
  /** Characters of HTML parsed at all. */
  htmlChars: 2_000_000,
  /** Elements and text nodes: pdfmake measures each, and html-to-pdfmake copies styles per node. */
  nodes: 20_000,
  /** Nesting depth: html-to-pdfmake recurses and re-reads every ancestor's style per node. */
  depth: 150,
  /** Characters of text: about 150 pages of A4. */
  textChars: 600_000,
  /**
   * Characters of text in one block (a paragraph, a cell, a list item): pdfmake re-measures a
   * block's remaining text on each page it breaks, so one long block costs time quadratically
   * (550 000 characters in one <p> took 15 s; as 1 500 paragraphs, 2.5 s).
   */
  blockChars: 50_000,
} as const;

/** Elements whose content is not part of the printed page. */
const DROPPED = new Set([
  "X-CANVAS",
  "SCRIPT",
  "STYLE",
  "NOSCRIPT",
  "TEMPLATE",
  "LINK",
  "META",
  "IFRAME",
  "OBJECT",
  "EMBED",
  "HEAD",
  "TITLE",
  "BASE",
]);

/**
 * Characters the standard fonts cannot show: they encode Windows-1252 only (Latin-1 and a few
 * typographic marks), and pdfkit would write anything else as the wrong glyphs ("Ελληνικά"
 * came out as "9S»;³·;Ó¹;"). Each becomes "?", which at least says something is missing.
 */
const OUTSIDE_FONTS_SOURCE = "[^\\t\\n\\r\\x20-\\x7e\\xa0-\\xff€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ]";
const OUTSIDE_FONTS = new RegExp(OUTSIDE_FONTS_SOURCE, "u");
const OUTSIDE_FONTS_ALL = new RegExp(OUTSIDE_FONTS_SOURCE, "gu");

/**
 * Text the standard fonts can show: Unicode's other spaces (the narrow no-break space ICU puts
 * before "AM" in a formatted date, thin spaces) become a space, anything else outside
 * Windows-1252 "?". pdfkit wrote a run holding U+202F as nothing at all.
 */
export function printableText(text: string): string {
  return text.replace(/[\u2000-\u200a\u202f\u205f\u3000]/g, " ").replace(OUTSIDE_FONTS_ALL, "?");
}

/** Elements html-to-pdfmake lays out as blocks of their own (a stack, a cell, a list item). */
const BLOCKS = new Set([
  "P",
  "DIV",
  "LI",
  "TD",
  "TH",
  "H1",
  "H2",
  "H3",
  "H4",
  "H5",
  "H6",
  "PRE",
  "BLOCKQUOTE",
  "SECTION",
  "ARTICLE",
  "HEADER",
  "FOOTER",
  "MAIN",
  "NAV",
  "ASIDE",
  "FIGURE",
  "FIGCAPTION",
  "DL",
  "DT",
  "DD",
  "ADDRESS",
  "TABLE",
  "UL",
  "OL",
]);

type ParsedDocument = ReturnType<typeof parseHTML>["document"];

export interface PreparedDocument {
  document: ParsedDocument;
  title: string;
  /** `<base href>`, when the page names one. */
  baseHref: string | undefined;
}

export type Refusal = {
  ok: false;
  problem: "invalid-input" | "unreadable-document";
  detail: string;
  reason?: "too-large";
};

/**
 * Parses and bounds the page: counts nodes, depth and text before anything is converted,
 * drops what is not printed, and makes backgrounds follow `printBackground`.
 */
export function prepareDocument(
  html: string,
  options: { printBackground: boolean; media: "print" | "screen" },
): { ok: true; prepared: PreparedDocument } | Refusal {
  const { printBackground } = options;
  if (html.length > DOCUMENT_LIMITS.htmlChars) {
    return tooLarge(
      `The HTML is ${html.length} characters; the embedded engine lays out at most ${DOCUMENT_LIMITS.htmlChars}.`,
    );
  }
  const markup = countMarkup(html);
  if (markup.tags > DOCUMENT_LIMITS.nodes * 2) {
    return tooLarge(
      `The HTML has ${markup.tags} tags, counted before parsing; the embedded engine lays out at most ${DOCUMENT_LIMITS.nodes} elements and text runs.`,
    );
  }
  if (markup.depth > DOCUMENT_LIMITS.depth * 2) {
    return tooLarge(
      `The HTML opens more than ${DOCUMENT_LIMITS.depth * 2} elements inside one another, counted before parsing; the embedded engine lays out at most ${DOCUMENT_LIMITS.depth} deep.`,
    );
  }
  // linkedom builds a <canvas> with the optional `canvas` package, which bundles without: it
  // throws "createCanvas is not a function". A canvas prints nothing anyway, so it is renamed
  // to an element linkedom does not construct, before parsing.
  const source = html.replace(/<(\/?)canvas(?=[\s/>])/gi, "<$1x-canvas");
  const { document } = parseHTML(
    /<html[\s>]/i.test(source) ? source : `<!doctype html><html><body>${source}</body></html>`,
  );
  const title = document.querySelector("title")?.textContent?.trim() ?? "";
  const baseHref = document.querySelector("base[href]")?.getAttribute("href") ?? undefined;
  const body = document.body;
  if (!body) return { ok: false, problem: "invalid-input", detail: "The HTML has no body to print." };
  // Content after </body> or </html> (a tracking snippet, a footer pasted late) is part of the
  // body for a browser; linkedom leaves it outside, where it would not print.
  for (const parent of [document.documentElement, document]) {
    let after = false;
    for (const node of [...(parent?.childNodes ?? [])]) {
      if (node === body || node === document.documentElement) after = true;
      else if (after && (node.nodeType === 1 || node.nodeType === 3)) body.appendChild(node);
    }
  }

  let nodes = 0;
  let textChars = 0;
  const drop: Element[] = [];
  const ids = new Set<string>();
  // Depth-first, iteratively: a deeply nested page must not overflow our own stack either.
  const stack: { node: Node; depth: number; block: Node }[] = [{ node: body, depth: 0, block: body }];
  const blockChars = new Map<Node, number>();
  while (stack.length > 0) {
    const { node, depth, block } = stack.pop()!;
    if (++nodes > DOCUMENT_LIMITS.nodes) {
      return tooLarge(
        `The page has more than ${DOCUMENT_LIMITS.nodes} elements and text runs; the embedded engine lays out at most that many.`,
      );
    }
    if (depth > DOCUMENT_LIMITS.depth) {
      return tooLarge(
        `The page nests elements more than ${DOCUMENT_LIMITS.depth} deep; the embedded engine lays out at most that depth.`,
      );
    }
    if (node.nodeType === 3) {
      const text = node.textContent ?? "";
      if (OUTSIDE_FONTS.test(text)) node.textContent = printableText(text);
      const length = text.length;
      textChars += length;
      if (textChars > DOCUMENT_LIMITS.textChars) {
        return tooLarge(
          `The page holds more than ${DOCUMENT_LIMITS.textChars} characters of text; the embedded engine lays out at most that many.`,
        );
      }
      const inBlock = (blockChars.get(block) ?? 0) + length;
      blockChars.set(block, inBlock);
      if (inBlock > DOCUMENT_LIMITS.blockChars) {
        return tooLarge(
          `One paragraph or block of the page holds more than ${DOCUMENT_LIMITS.blockChars} characters; the embedded engine lays out at most that many per block (split it into paragraphs).`,
        );
      }
      continue;
    }
    if (node.nodeType !== 1) continue;
    const element = node as Element;
    if (
      DROPPED.has(element.nodeName.toUpperCase()) ||
      (element.nodeName.toUpperCase() === "IMG" && !imageSource(element))
    ) {
      drop.push(element);
      continue;
    }
    // pdfmake fails on a second node with an id; a browser's getElementById takes the first.
    const id = element.getAttribute("id");
    if (id !== null) {
      if (ids.has(id)) element.removeAttribute("id");
      else ids.add(id);
    }
    if (element.nodeName.toUpperCase() === "SVG" && !sizeSvg(element)) {
      drop.push(element);
      continue;
    }
    if (element.nodeName.toUpperCase() === "SVG") {
      // pdfmake draws inline SVG itself, but an <image> or <use> in it would make pdfkit read a
      // file by name: only the shapes are kept.
      for (const reference of [...element.querySelectorAll("image, use, foreignObject")]) reference.remove();
    }
    if (element.nodeName.toUpperCase() === "TABLE") {
      const table = normaliseTable(element);
      if (table === "too-large") {
        return tooLarge(
          `A table has more than ${DOCUMENT_LIMITS.nodes} cells once its rows are filled out; the embedded engine lays out at most that many.`,
        );
      }
      if (table === "empty") {
        drop.push(element);
        continue;
      }
    }
    const style = element.getAttribute("style");
    if (style) element.setAttribute("style", cleanStyle(style, printBackground));
    if (!printBackground) element.removeAttribute("bgcolor");
    const childBlock = BLOCKS.has(element.nodeName.toUpperCase()) ? element : block;
    for (let child = element.lastChild; child; child = child.previousSibling)
      stack.push({ node: child, depth: depth + 1, block: childBlock });
  }
  // The style sheets are read before their elements go, and applied once the tree is bounded.
  const css = [...document.querySelectorAll("style")]
    .filter((style) => mediaApplies(style.getAttribute("media") || "all", options.media))
    .map((style) => style.textContent ?? "")
    .join("\n");
  for (const element of drop) element.remove();
  if (css.trim()) {
    for (const element of applyStyleRules(document, parseStyleSheet(css, options.media), nodes)) {
      element.setAttribute("style", cleanStyle(element.getAttribute("style") ?? "", printBackground));
    }
  }
  // A browser draws a table's lines only where the page asks (a `border` attribute or CSS);
  // pdfmake draws every line unless a cell says otherwise. Cells of a table without a border
  // attribute start with none, under whatever their styles add. (`border:0`, because
  // html-to-pdfmake reads `border-width: 0` as no value, which it takes for a line.)
  for (const table of document.querySelectorAll("table")) {
    if (Number.parseInt(table.getAttribute("border") ?? "0", 10) > 0) continue;
    for (const row of table.children) {
      for (const cell of /^T(HEAD|BODY|FOOT)$/i.test(row.nodeName)
        ? [...row.children].flatMap((tr) => [...tr.children])
        : []) {
        cell.setAttribute("style", `border:0;${cell.getAttribute("style") ?? ""}`);
      }
    }
  }
  return { ok: true, prepared: { document, title, baseHref } };
}

/**
 * Gives an inline SVG the pixel width and height pdfmake needs (it fails without them): its own
 * when they are numbers, else its viewBox's, else a browser's default 300 × 150. False when it
 * would have no area, and is to be dropped.
 */
function sizeSvg(svg: Element): boolean {
  const pixels = (name: string): number | null => {
    const match = /^\s*(\d+(?:\.\d+)?)\s*(px)?\s*$/i.exec(svg.getAttribute(name) ?? "");
    return match ? Number(match[1]) : null;
  };
  const viewBox = (svg.getAttribute("viewBox") ?? "")
    .trim()
    .split(/[\s,]+/)
    .map(Number);
  const [boxWidth, boxHeight] =
    viewBox.length === 4 && viewBox.every(Number.isFinite) ? [viewBox[2]!, viewBox[3]!] : [null, null];
  const width = pixels("width") ?? boxWidth ?? 300;
  const height = pixels("height") ?? boxHeight ?? 150;
  if (!(width > 0 && height > 0)) return false;
  svg.setAttribute("width", String(width));
  svg.setAttribute("height", String(height));
  return true;
}

/**
 * The source html-to-pdfmake will read from an <img> (`data-src` first, for lazy-loaded
 * pages), or null when it has none it can take: it fails on a missing one, and parses one that
 * starts with "{" as its own JSON options.
 */
function imageSource(image: Element): string | null {
  const source = (image.getAttribute("data-src") || image.getAttribute("src") || "").trim();
  return source && !source.startsWith("{") ? source : null;
}

/**
 * Gives a table the shape pdfmake needs, as a browser's parser would: rows directly in the
 * table go into a <tbody> (linkedom does not add the implied one, and html-to-pdfmake reads rows
 * only inside sections), and every row gets as many cells as the widest, counting colspan and
 * rowspan (pdfmake fails on ragged rows). A table without a cell is to be dropped, and one
 * whose filled-out grid would exceed the node limit refused, before a cell is added.
 */
export function normaliseTable(table: Element): "ok" | "empty" | "too-large" {
  const document = table.ownerDocument;
  let looseBody: Element | null = null;
  for (const child of [...table.childNodes]) {
    const name = child.nodeName.toUpperCase();
    if (name === "TR") {
      if (!looseBody) {
        looseBody = document.createElement("tbody");
        table.insertBefore(looseBody, child);
      }
      looseBody.appendChild(child);
    } else if (name === "THEAD" || name === "TBODY" || name === "TFOOT") {
      looseBody = null;
    } else if (name === "CAPTION" || (child.nodeType === 1 && name !== "COLGROUP" && name !== "COL")) {
      // A caption or stray element inside a table: html-to-pdfmake would read it as a row.
      child.remove();
    }
  }
  const rows = [...table.children]
    .filter((section) => /^(THEAD|TBODY|TFOOT)$/i.test(section.nodeName))
    .flatMap((section) => [...section.children].filter((row) => row.nodeName.toUpperCase() === "TR"));
  // Columns each row covers, with cells spanning down from the rows above.
  const covered: number[] = rows.map(() => 0);
  rows.forEach((row, index) => {
    for (const cell of [...row.children]) {
      if (!/^T[DH]$/i.test(cell.nodeName)) {
        cell.remove();
        continue;
      }
      const colspan = Math.max(1, Math.min(MAX_COLUMNS, Number.parseInt(cell.getAttribute("colspan") ?? "1", 10) || 1));
      const rowspan = Math.max(
        1,
        Math.min(rows.length - index, Number.parseInt(cell.getAttribute("rowspan") ?? "1", 10) || 1),
      );
      if (cell.hasAttribute("colspan")) cell.setAttribute("colspan", String(colspan));
      if (cell.hasAttribute("rowspan")) cell.setAttribute("rowspan", String(rowspan));
      for (let spanned = 0; spanned < rowspan; spanned++) covered[index + spanned]! += colspan;
    }
  });
  const columns = covered.reduce((widest, count) => Math.max(widest, count), 0);
  if (columns === 0) return "empty";
  if (columns * rows.length > DOCUMENT_LIMITS.nodes) return "too-large";
  rows.forEach((row, index) => {
    for (let missing = columns - covered[index]!; missing > 0; missing--) row.appendChild(document.createElement("td"));
  });
  return "ok";
}

/** Wider than any printable table; a larger colspan is read as this. */
const MAX_COLUMNS = 200;

/**
 * An inline style html-to-pdfmake can pass to pdfmake safely. It reads `background` as a colour
 * and `font-family` as a registered font, and hands unknown properties to pdfmake as they are:
 * `background: url(…)` would reach pdfkit as a colour. Backgrounds become `background-color`
 * when they are one colour (and go when `printBackground` is false).
 */
export function cleanStyle(style: string, printBackground: boolean): string {
  const kept: string[] = [];
  for (const declaration of style.split(";")) {
    const colon = declaration.indexOf(":");
    if (colon < 0) continue;
    const property = declaration.slice(0, colon).trim().toLowerCase();
    const value = declaration
      .slice(colon + 1)
      .replace(/!important/i, "")
      .trim();
    if (!value) continue;
    if (property === "background" || property === "background-color") {
      if (printBackground && isPlainColour(value)) kept.push(`background-color:${value}`);
      continue;
    }
    if (property.startsWith("background")) continue;
    if (
      (property === "color" || property.endsWith("-color") || property.startsWith("border")) &&
      /var\(|url\(|gradient/i.test(value)
    )
      continue;
    // Only absolute and font-relative lengths reach pdfmake as numbers; vw/vh/%/calc() would not.
    if (/calc\(|var\(|\d(vw|vh|vmin|vmax|ch|ex)\b/i.test(value)) continue;
    kept.push(`${property}:${value}`);
  }
  return kept.join(";");
}

function isPlainColour(value: string): boolean {
  return (
    /^(#[0-9a-f]{3,8}|(rgb|rgba|hsl|hsla)\([^()]*\)|[a-z]+)$/i.test(value) &&
    !/^(transparent|none|inherit|initial|unset|currentcolor)$/i.test(value)
  );
}

/** The fonts the engine has: pdfkit's standard 14, as Helvetica, Times and Courier. */
export const FONTS = { sans: "Helvetica", serif: "Times", mono: "Courier" } as const;

/** html-to-pdfmake's idea of a CSS font family ("TimesNewRoman", "Monospace") as one of ours. */
export function fontFor(family: string): string {
  const name = family.toLowerCase();
  if (/mono|courier|consol|menlo|code|typewriter/.test(name)) return FONTS.mono;
  if (/^serif$|times|georgia|garamond|roman|cambria|palatino|book/.test(name)) return FONTS.serif;
  return FONTS.sans;
}

/**
 * Browser-like defaults where html-to-pdfmake's differ: a header cell is bold but not shaded,
 * code is monospace, quotes are indented, blocks are spaced, headings follow Chromium's sizes
 * (2em, 1.5em, 1.17em, 1em, .83em, .67em of 12pt).
 */
const DEFAULT_STYLES = {
  th: { bold: true, fillColor: "" },
  h1: { fontSize: 24, bold: true, marginBottom: 8 },
  h2: { fontSize: 18, bold: true, marginBottom: 6 },
  h3: { fontSize: 14, bold: true, marginBottom: 5 },
  h4: { fontSize: 12, bold: true, marginBottom: 5 },
  h5: { fontSize: 10, bold: true, marginBottom: 4 },
  h6: { fontSize: 8, bold: true, marginBottom: 4 },
  pre: { font: FONTS.mono, marginBottom: 10 },
  blockquote: { marginLeft: 30, marginRight: 30, marginBottom: 10 },
  ul: { marginBottom: 10, marginLeft: 5 },
  ol: { marginBottom: 10, marginLeft: 5 },
  code: { font: FONTS.mono },
  kbd: { font: FONTS.mono },
  samp: { font: FONTS.mono },
  tt: { font: FONTS.mono },
};

/** html-to-pdfmake reads the tree we already parsed and bounded, through a DOMParser that hands it over. */
function windowFor(document: ParsedDocument) {
  return {
    DOMParser: class {
      parseFromString(): ParsedDocument {
        return document;
      }
    },
  };
}

/** The body as pdfmake content, with its images as references to resolve. */
export function convertBody(
  document: ParsedDocument,
  printBackground: boolean,
): { content: unknown; images: Record<string, string> } {
  const converted = htmlToPdfmake("", {
    window: windowFor(document),
    imagesByReference: true,
    // Widths from the page (`width: 100%` on a table, a cell's width) apply only with this.
    tableAutoSize: true,
    defaultStyles: DEFAULT_STYLES,
    ignoreStyles: printBackground ? [] : ["background-color", "background"],
    removeExtraBlanks: true,
  });
  return { content: asParagraph(converted.content), images: converted.images };
}

/** What html-to-pdfmake lays out as a block of its own (its `searchForStack` test). */
const BLOCK_NODES = new Set(["P", "DIV", "TABLE", "SVG", "UL", "OL", "IMG", "H1", "H2", "H3", "H4", "H5", "H6"]);

/**
 * html-to-pdfmake answers a body of inline content only ("Hello <b>world</b>") as the bare
 * array of its runs, which pdfmake reads as a stack, one run per line (and a header's last runs
 * fell below its margin, unprinted): such an array is one paragraph of those runs.
 */
export function asParagraph(content: unknown): unknown {
  if (!Array.isArray(content)) return content;
  const isBlock = (node: unknown): boolean => {
    if (!node || typeof node !== "object") return false;
    const record = node as Record<string, unknown>;
    return (
      ["stack", "table", "ul", "ol", "image", "svg", "canvas", "columns"].some((key) => key in record) ||
      (typeof record.nodeName === "string" && BLOCK_NODES.has(record.nodeName))
    );
  };
  return content.some(isBlock) ? content : { text: content };
}

/** A header or footer template as pdfmake content (no images: they would need fetching per page). */
export function convertFragment(document: ParsedDocument): unknown {
  for (const image of [...document.querySelectorAll("img")]) image.remove();
  return asParagraph(
    htmlToPdfmake("", {
      window: windowFor(document),
      defaultStyles: DEFAULT_STYLES,
      removeExtraBlanks: true,
    }),
  );
}

/** A fragment of HTML (a header template) parsed on its own. */
export function parseFragment(
  html: string,
  options: { printBackground: boolean; media: "print" | "screen" },
): { ok: true; document: ParsedDocument } | Refusal {
  const prepared = prepareDocument(html, options);
  return prepared.ok ? { ok: true, document: prepared.prepared.document } : prepared;
}

/**
 * Fits converted content to the engine, in place: each `font` becomes one we have, and `scale`
 * multiplies font sizes, spacing and image sizes as Chromium's scale does. Images keyed in
 * `images` get their CSS size (96 px to the inch, no wider than the column) unless the page set
 * one; images not in it were left out and become empty text.
 */
export function fitContent(
  content: unknown,
  options: {
    scale: number;
    contentWidth: number;
    images: Map<string, { key: string; width: number; height: number }>;
    baseUrl?: string | undefined;
  },
): unknown {
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) {
      for (let index = 0; index < node.length; index++) node[index] = visit(node[index]);
      return node;
    }
    if (!node || typeof node !== "object") return node;
    const record = node as Record<string, unknown>;
    if (typeof record.image === "string") {
      const image = options.images.get(record.image);
      if (!image) return { text: "" };
      record.image = image.key;
      if (record.width === undefined && record.height === undefined && record.fit === undefined) {
        record.width = image.width * 0.75 * options.scale;
      } else {
        scaleKey(record, "width", options.scale);
        scaleKey(record, "height", options.scale);
      }
      record.maxWidth = options.contentWidth;
    }
    if (typeof record.font === "string") record.font = fontFor(record.font);
    if (typeof record.link === "string") {
      const link = safeLink(record.link, options.baseUrl);
      if (link) record.link = link;
      else delete record.link;
    }
    scaleKey(record, "fontSize", options.scale);
    for (const key of ["margin", "marginLeft", "marginTop", "marginRight", "marginBottom", "leadingIndent"]) {
      scaleKey(record, key, options.scale);
    }
    const table = record.table as { body?: unknown; widths?: unknown } | undefined;
    if (table && Array.isArray(table.widths)) table.widths = fitWidths(table.widths);
    if (table && Array.isArray(table.body)) {
      // html-to-pdfmake copies a cell's width into the table's widths and leaves it on the
      // cell too, where pdfmake reads it as the text's width and pushes the table off the page.
      for (const row of table.body) {
        if (!Array.isArray(row)) continue;
        for (const cell of row) {
          if (cell && typeof cell === "object") {
            delete (cell as Record<string, unknown>).width;
            delete (cell as Record<string, unknown>).height;
          }
        }
      }
    }
    for (const key of ["text", "stack", "ul", "ol", "columns", "table", "body"]) {
      if (key in record) record[key] = visit(record[key]);
    }
    return record;
  };
  return visit(content);
}

/**
 * A link as the PDF may carry it: absolute (against the page's URL), and only to the web, mail
 * or a phone; a `javascript:` or `file:` link in a PDF is an attack on its reader, and a
 * relative one leads nowhere.
 */
export function safeLink(href: string, baseUrl: string | undefined): string | null {
  try {
    const url = new URL(href.trim(), baseUrl);
    return /^(https?|mailto|tel):$/.test(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * Column widths pdfmake can honour: its percentages are of the whole column, so beside fixed
 * widths (a `width: 100%` table with one 200px cell) or adding up past 100 they would push the
 * table off the page; then they share what is left instead (`*`).
 */
export function fitWidths(widths: unknown[]): unknown[] {
  const percents = widths.filter((width): width is string => typeof width === "string" && width.endsWith("%"));
  const total = percents.reduce((sum, width) => sum + (Number.parseFloat(width) || 0), 0);
  const fixed = widths.some((width) => typeof width === "number");
  if (percents.length === 0 || (!fixed && total <= 100.5)) return widths;
  return widths.map((width) => (typeof width === "string" && width.endsWith("%") ? "*" : width));
}

function scaleKey(record: Record<string, unknown>, key: string, scale: number): void {
  const value = record[key];
  if (typeof value === "number") record[key] = value * scale;
  else if (Array.isArray(value) && value.every((item) => typeof item === "number"))
    record[key] = value.map((item: number) => item * scale);
}

/** Elements that never hold others, and those a parser closes when a sibling starts. */
const NOT_NESTING = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "source",
  "track",
  "wbr",
  "p",
  "li",
  "dt",
  "dd",
  "tr",
  "td",
  "th",
  "thead",
  "tbody",
  "tfoot",
  "option",
  "optgroup",
  "colgroup",
  "rp",
  "rt",
]);

/**
 * Start tags and an estimate of nesting, read from the text without building anything. The node
 * limits are checked on the parsed tree too, but parsing is itself the cost to avoid: linkedom
 * needed 364 MB for 2 MB of "<p>x", 120 MB for 280 000 "<b></b>", and 39 s of CPU for 650 000
 * unclosed <i>. Both counts can overestimate ("a<b" in an attribute or a comment counts), so
 * the refusal is at twice the tree's limits.
 */
function countMarkup(html: string): { tags: number; depth: number } {
  let tags = 0;
  let open = 0;
  let depth = 0;
  let at = html.indexOf("<");
  while (at >= 0 && at < html.length - 1) {
    const next = html.charCodeAt(at + 1);
    const closing = next === 0x2f; // "/"
    const first = closing ? html.charCodeAt(at + 2) : next;
    if ((first >= 0x41 && first <= 0x5a) || (first >= 0x61 && first <= 0x7a)) {
      const start = at + (closing ? 2 : 1);
      let end = start;
      while (end < html.length && end - start < 16 && /[\w-]/.test(html[end]!)) end++;
      const name = html.slice(start, end).toLowerCase();
      // "<div/>" opens a div in HTML: only void elements close themselves.
      if (!NOT_NESTING.has(name)) {
        if (closing) open = Math.max(0, open - 1);
        else depth = Math.max(depth, ++open);
      }
      if (!closing) tags++;
      // A script's or style's text is not markup ("i<n" in a loop): skip to its end tag.
      if (!closing && (name === "script" || name === "style")) {
        const closer = new RegExp(`</${name}`, "gi");
        closer.lastIndex = at + 1;
        if (!closer.test(html)) break;
        at = closer.lastIndex - name.length - 2;
        continue;
      }
    }
    at = html.indexOf("<", at + 1);
  }
  return { tags, depth };
}

function tooLarge(detail: string): Refusal {
  return { ok: false, problem: "unreadable-document", detail, reason: "too-large" };
}
