/**
 * A page's own style sheets (`<style>` elements), applied the only way html-to-pdfmake reads
 * style: as inline `style` attributes. Rules are matched with linkedom's selector engine and
 * cascaded by specificity and order, under the inline style; `@media` blocks apply when they
 * name the emulated media type (print by default) or `all`. Not applied: pseudo-classes of
 * state (:hover), pseudo-elements (::before), `@import`, `@font-face`, `@page` and `<link>`ed
 * style sheets. Bounded: the CSS read, the rules and the matches.
 */

export const STYLESHEET_LIMITS = {
  /** Characters of CSS read from all `<style>` elements together. */
  cssChars: 200_000,
  /** Style rules applied (each selector of a list counts). */
  rules: 2_000,
  /** Elements matched by all rules together. */
  matches: 200_000,
  /**
   * Rules × elements tried: each rule walks the whole tree (3 000 rules over 18 000 elements took
   * 9 s), so a large page gets only its first rules.
   */
  work: 3_000_000,
} as const;

export interface StyleRule {
  selector: string;
  /** The declarations as written, `;`-separated. */
  declarations: string;
  specificity: number;
  order: number;
}

/** Selectors that depend on interaction or generate content: they never match a printed page. */
const UNPRINTABLE_SELECTOR =
  /::|:(hover|focus|focus-within|focus-visible|active|visited|target|before|after|first-line|first-letter|placeholder|selection)\b/i;

/** The style rules of `css` that apply to `media`, each selector of a list as its own rule. */
export function parseStyleSheet(css: string, media: "print" | "screen"): StyleRule[] {
  const rules: StyleRule[] = [];
  const text = css.slice(0, STYLESHEET_LIMITS.cssChars).replace(/\/\*[\s\S]*?(\*\/|$)/g, "");
  const read = (from: number, to: number): void => {
    let index = from;
    while (index < to && rules.length < STYLESHEET_LIMITS.rules) {
      const open = text.indexOf("{", index);
      const semicolon = text.indexOf(";", index);
      // An at-rule without a block (`@import url(x);`, `@charset "x";`) ends at its semicolon.
      if (text.slice(index, to).trimStart().startsWith("@") && semicolon >= 0 && (open < 0 || semicolon < open)) {
        index = semicolon + 1;
        continue;
      }
      if (open < 0 || open >= to) return;
      const close = matchingBrace(text, open, to);
      const prelude = text.slice(index, open).trim();
      const body = text.slice(open + 1, close);
      if (prelude.startsWith("@")) {
        const media_ = /^@media\s+(.*)$/is.exec(prelude)?.[1];
        if (media_ !== undefined && mediaApplies(media_, media)) read(open + 1, close);
      } else if (prelude) {
        for (const selector of prelude.split(",")) {
          const trimmed = selector.trim();
          if (!trimmed || UNPRINTABLE_SELECTOR.test(trimmed)) continue;
          rules.push({
            selector: trimmed,
            declarations: body.trim(),
            specificity: specificity(trimmed),
            order: rules.length,
          });
        }
      }
      index = close + 1;
    }
  };
  read(0, text.length);
  return rules;
}

function matchingBrace(text: string, open: number, end: number): number {
  let depth = 0;
  for (let index = open; index < end; index++) {
    if (text[index] === "{") depth++;
    else if (text[index] === "}" && --depth === 0) return index;
  }
  return end;
}

/** Whether a media query list names `media` or all media (`print`, `screen and (min-width: …)`, `all`). */
export function mediaApplies(query: string, media: "print" | "screen"): boolean {
  return query.split(",").some((part) => {
    const words = part.trim().toLowerCase();
    if (words.startsWith("not ")) return false;
    const type = /^(only\s+)?([a-z]+)/.exec(words)?.[2];
    // A bare feature query, `(min-width: 600px)`, applies to every type; we do not evaluate it.
    return type === undefined || type === "all" || type === media;
  });
}

/** Ids, then classes, attributes and pseudo-classes, then types, as one comparable number. */
export function specificity(selector: string): number {
  const ids = selector.match(/#[\w-]+/g)?.length ?? 0;
  const classes = selector.match(/\.[\w-]+|\[[^\]]*\]|:(?!:)[\w-]+/g)?.length ?? 0;
  const types =
    selector.replace(/#[\w-]+|\.[\w-]+|\[[^\]]*\]|:+[\w-]+(\([^)]*\))?/g, " ").match(/(^|[\s>+~(])[a-z][\w-]*/gi)
      ?.length ?? 0;
  return ids * 1_000_000 + classes * 1_000 + types;
}

interface Styled {
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
}

/**
 * Writes the rules onto the elements they match, before their own inline style, so the inline
 * style wins and, among rules, the more specific and then the later one (html-to-pdfmake takes
 * the last declaration of a property). Answers the elements whose style changed.
 */
export function applyStyleRules<E extends Styled>(
  root: { querySelectorAll(selector: string): Iterable<E> },
  rules: StyleRule[],
  elementCount: number,
): Set<E> {
  const affordable = Math.floor(STYLESHEET_LIMITS.work / Math.max(1, elementCount));
  const sorted = rules.slice(0, affordable).sort((a, b) => a.specificity - b.specificity || a.order - b.order);
  const fromSheets = new Map<E, string[]>();
  let matches = 0;
  for (const rule of sorted) {
    let elements: E[];
    try {
      elements = [...root.querySelectorAll(rule.selector)];
    } catch {
      continue; // A selector linkedom does not read matches nothing, as in a browser that lacks it.
    }
    matches += elements.length;
    if (matches > STYLESHEET_LIMITS.matches) break;
    for (const element of elements) {
      const list = fromSheets.get(element);
      if (list) list.push(rule.declarations);
      else fromSheets.set(element, [rule.declarations]);
    }
  }
  for (const [element, declarations] of fromSheets) {
    const inline = element.getAttribute("style") ?? "";
    element.setAttribute("style", [...declarations, inline].filter(Boolean).join(";"));
  }
  return new Set(fromSheets.keys());
}
