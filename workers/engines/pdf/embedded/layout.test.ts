import { describe, expect, it } from "vitest";
import { cleanStyle, fontFor } from "./document";
import { cssLengthToPoints, selectPages } from "./layout";

describe("cssLengthToPoints", () => {
  it("reads absolute CSS lengths with CSS's fixed ratios, and a bare number as pixels", () => {
    expect(cssLengthToPoints("96px")).toBe(72);
    expect(cssLengthToPoints("1in")).toBe(72);
    expect(cssLengthToPoints("2.54cm")).toBeCloseTo(72, 10);
    expect(cssLengthToPoints("25.4mm")).toBeCloseTo(72, 10);
    expect(cssLengthToPoints("1pc")).toBe(12);
    expect(cssLengthToPoints(" 10pt ")).toBe(10);
    expect(cssLengthToPoints("40")).toBe(30);
    expect(cssLengthToPoints("0")).toBe(0);
  });

  it("refuses relative and malformed lengths", () => {
    for (const length of ["50%", "2em", "10vw", "-1cm", "cm", "", "1 2cm"])
      expect(cssLengthToPoints(length)).toBeNull();
  });
});

describe("selectPages", () => {
  it("reads Chromium's page ranges: lists, ranges, open ends, each page once and in order", () => {
    expect(selectPages("1-3, 5", 10)).toEqual([1, 2, 3, 5]);
    expect(selectPages("5, 1-2, 2", 10)).toEqual([1, 2, 5]);
    expect(selectPages("8-", 10)).toEqual([8, 9, 10]);
    expect(selectPages("-2", 10)).toEqual([1, 2]);
    expect(selectPages("9-12", 10)).toEqual([9, 10]);
    expect(selectPages("11-", 10)).toEqual([]);
    // The engine checks the text before it knows the page count, as a one-page document.
    expect(selectPages("3-", 1)).toEqual([]);
  });

  it("refuses text that is not ranges", () => {
    for (const ranges of ["", "-", "a", "3-1", "0", "1;2", "1-2-3"]) expect(selectPages(ranges, 10)).toBeNull();
  });
});

describe("cleanStyle", () => {
  it("keeps one-colour backgrounds as background-color when backgrounds print, and drops the rest", () => {
    expect(cleanStyle("color: red; background: #eee", true)).toBe("color:red;background-color:#eee");
    expect(cleanStyle("background: url(x.png) no-repeat; background-image: linear-gradient(red, blue)", true)).toBe("");
    expect(cleanStyle("background-color: rgb(1, 2, 3) !important", true)).toBe("background-color:rgb(1, 2, 3)");
    expect(cleanStyle("background-color: rgb(1, 2, 3); color: blue", false)).toBe("color:blue");
  });

  it("drops values pdfmake cannot read as colours or lengths", () => {
    expect(cleanStyle("color: var(--brand); width: calc(100% - 2px); font-size: 3vw; margin: 4px", true)).toBe(
      "margin:4px",
    );
  });
});

describe("fontFor", () => {
  it("maps html-to-pdfmake's font names onto the three families the engine has", () => {
    expect(fontFor("TimesNewRoman")).toBe("Times");
    expect(fontFor("Georgia")).toBe("Times");
    expect(fontFor("Serif")).toBe("Times");
    expect(fontFor("Monospace")).toBe("Courier");
    expect(fontFor("CourierNew")).toBe("Courier");
    expect(fontFor("Arial")).toBe("Helvetica");
    expect(fontFor("SansSerif")).toBe("Helvetica");
  });
});
