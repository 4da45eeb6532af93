import { describe, expect, it } from "vitest";
import { cleanStyle, fitWidths, fontFor, printableText } from "./document";
import { cssLengthToPoints, selectPages } from "./layout";
import { applyStyleRules, mediaApplies, parseStyleSheet, specificity, STYLESHEET_LIMITS } from "./stylesheet";

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

describe("parseStyleSheet", () => {
  it("reads rules selector by selector, with the media blocks for the emulated media", () => {
    const css = `/* a comment { x } */ @import url(x.css); @charset "utf-8";
      h1, .title { color: red; } @font-face { font-family: X; src: url(x.woff); }
      @media print { p { color: black } } @media screen and (min-width: 600px) { p { color: grey } }
      @media (min-width: 600px) { em { color: blue } } @page { margin: 1cm }
      a:hover { color: pink } p::before { content: "x" } li:first-child { font-weight: bold }`;
    const print = parseStyleSheet(css, "print").map((rule) => `${rule.selector} {${rule.declarations}}`);
    expect(print).toEqual([
      "h1 {color: red;}",
      ".title {color: red;}",
      "p {color: black}",
      "em {color: blue}",
      "li:first-child {font-weight: bold}",
    ]);
    const screen = parseStyleSheet(css, "screen").map((rule) => rule.declarations);
    expect(screen).toContain("color: grey");
    expect(screen).not.toContain("color: black");
  });

  it("ranks ids over classes over types", () => {
    expect(specificity("#a")).toBeGreaterThan(specificity(".a.b.c"));
    expect(specificity(".a")).toBeGreaterThan(specificity("body div p"));
    expect(specificity("td.amount")).toBeGreaterThan(specificity(".amount"));
    expect(specificity("tr.total td")).toBeGreaterThan(specificity("td.amount") - 1);
  });
});

describe("mediaApplies", () => {
  it("applies all, the emulated type and bare feature queries, not other types or negations", () => {
    expect(mediaApplies("all", "print")).toBe(true);
    expect(mediaApplies("print", "print")).toBe(true);
    expect(mediaApplies("only screen and (max-width: 400px)", "screen")).toBe(true);
    expect(mediaApplies("screen", "print")).toBe(false);
    expect(mediaApplies("screen, print", "print")).toBe(true);
    expect(mediaApplies("not print", "print")).toBe(false);
    expect(mediaApplies("(orientation: portrait)", "print")).toBe(true);
  });
});

describe("applyStyleRules", () => {
  function element(style: string | null) {
    const attributes = new Map<string, string>(style === null ? [] : [["style", style]]);
    return {
      getAttribute: (name: string) => attributes.get(name) ?? null,
      setAttribute: (name: string, value: string) => void attributes.set(name, value),
    };
  }

  it("writes matching rules before the inline style, less specific first, then in order", () => {
    const paragraph = element("color: green");
    const root = {
      querySelectorAll: (selector: string) => (selector === "p" || selector === ".note" ? [paragraph] : []),
    };
    const rules = parseStyleSheet(".note { color: blue } p { color: red } div { color: pink }", "print");
    expect([...applyStyleRules(root, rules, 10)]).toEqual([paragraph]);
    expect(paragraph.getAttribute("style")).toBe("color: red;color: blue;color: green");
  });

  it("tries only as many rules as the page's size affords, each walking the whole tree", () => {
    const tried: string[] = [];
    const root = { querySelectorAll: (selector: string) => (tried.push(selector), []) };
    const rules = parseStyleSheet(Array.from({ length: 1000 }, (_, i) => `.c${i} { color: red }`).join(" "), "print");
    applyStyleRules(root, rules, 10_000);
    expect(tried).toHaveLength(STYLESHEET_LIMITS.work / 10_000);
    expect(tried[0]).toBe(".c0");
  });
});

describe("fitWidths", () => {
  it("keeps percentages that fit, and turns them into shares beside fixed widths or past 100", () => {
    expect(fitWidths(["50%", "50%"])).toEqual(["50%", "50%"]);
    expect(fitWidths(["auto", 151])).toEqual(["auto", 151]);
    expect(fitWidths(["50%", 151, "50%"])).toEqual(["*", 151, "*"]);
    expect(fitWidths(["80%", "40%"])).toEqual(["*", "*"]);
  });
});

describe("printableText", () => {
  it("keeps Windows-1252, turns Unicode's other spaces into spaces and anything else into ?", () => {
    expect(printableText("Café – “ok” €5")).toBe("Café – “ok” €5");
    expect(printableText("5:30\u202fAM,\u2009thin")).toBe("5:30 AM, thin");
    expect(printableText("Ελλάδα 😀")).toBe("?????? ?");
  });
});
