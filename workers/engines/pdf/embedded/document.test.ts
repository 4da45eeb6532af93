/**
 * What the embedded engine hands pdfmake for tables, read from the converted content: lines and
 * widths are pdfmake's instructions, not text a PDF reader would show.
 */
import { describe, expect, it } from "vitest";
import { convertBody, convertFragment, prepareDocument } from "./document";

function tableOf(html: string) {
  const prepared = prepareDocument(html, { printBackground: true, media: "print" });
  if (!prepared.ok) throw new Error(prepared.detail);
  const content = convertBody(prepared.prepared.document, true).content as {
    table?: { body: { border?: boolean[] }[][]; widths?: unknown[] };
  }[];
  const table = content.find((node) => node.table)?.table;
  if (!table) throw new Error("no table");
  return table;
}

describe("tables", () => {
  it("draw no lines unless the page asks, as a browser does", () => {
    const plain = tableOf("<table><tr><td>a</td><td>b</td></tr></table>");
    expect(plain.body[0]!.map((cell) => cell.border)).toEqual([
      [false, false, false, false],
      [false, false, false, false],
    ]);
  });

  it("draw the lines the style sheet or inline styles ask for", () => {
    const ruled = tableOf(
      '<style>td { border-bottom: 1px solid #ccc }</style><table><tr><td>a</td><td style="border-left: 2px solid red">b</td></tr></table>',
    );
    expect(ruled.body[0]!.map((cell) => cell.border)).toEqual([
      [false, false, false, true],
      [true, false, false, true],
    ]);
  });

  it("keep pdfmake's grid when the table has a border attribute", () => {
    const bordered = tableOf('<table border="1"><tr><td>a</td></tr></table>');
    expect(bordered.body[0]![0]!.border).toBeUndefined();
  });

  it("span the column when the page gives width: 100%", () => {
    const percent = (widths: unknown[] | undefined) =>
      (widths ?? []).reduce<number>(
        (sum, width) => sum + (typeof width === "string" && width.endsWith("%") ? Number.parseFloat(width) : 0),
        0,
      );
    expect(percent(tableOf('<table style="width: 100%"><tr><td>a</td><td>b</td></tr></table>').widths)).toBe(100);
    expect(percent(tableOf("<style>table { width: 100% }</style><table><tr><td>a</td></tr></table>").widths)).toBe(100);
    expect(tableOf("<table><tr><td>a</td></tr></table>").widths).toEqual(["auto"]);
  });
});

describe("inline content", () => {
  const prepared = (html: string) => {
    const result = prepareDocument(html, { printBackground: true, media: "print" });
    if (!result.ok) throw new Error(result.detail);
    return result.prepared.document;
  };

  it("is one paragraph of runs, not a stack of one run per line", () => {
    const content = convertBody(prepared("Hello <b>world</b> again"), true).content as { text?: unknown[] };
    expect(Array.isArray(content.text)).toBe(true);
    expect(content.text).toHaveLength(3);
    expect(convertFragment(prepared('Page <span class="pageNumber">1</span> of 2'))).toMatchObject({
      text: [{}, {}, {}],
    });
  });

  it("stays a stack of blocks when the body has blocks", () => {
    expect(Array.isArray(convertBody(prepared("<p>One</p><p>Two</p>"), true).content)).toBe(true);
  });
});
