/**
 * What the extractors share for reading the platforms' HTML and for asking as a browser does:
 * one copy of each, since copies drift (one decoder threw on a character reference past
 * U+10FFFF while another did not; one mime table knew GIF and another HEIC).
 *
 * These read pages with regular expressions, not a DOM: workerd has no DOMParser, and what is
 * read is a few attributes of tags the platforms write themselves. Every pattern here is linear
 * (tests/integration/regex-safety.test.ts).
 */

/**
 * The browser the extractors present as to pages that serve logged-out visitors: the platforms
 * answer a bare client with a login wall or an "unsupported browser" page more often.
 */
export const BROWSER_USER_AGENT =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

/** The headers of a browser's top-level navigation to a page. */
export const BROWSER_PAGE_HEADERS: Readonly<Record<string, string>> = {
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8",
  "accept-language": "en-US,en;q=0.9",
  "sec-fetch-dest": "document",
  "sec-fetch-mode": "navigate",
  "sec-fetch-site": "none",
  "user-agent": BROWSER_USER_AGENT,
};

const NAMED: Readonly<Record<string, string>> = {
  quot: '"',
  amp: "&",
  lt: "<",
  gt: ">",
  apos: "'",
  nbsp: "\u00a0",
};

/**
 * HTML character references decoded: numeric ones (decimal and hex) and the named ones the
 * platforms write in attributes. A number that is no Unicode scalar value (past U+10FFFF, a
 * surrogate, or NUL) becomes U+FFFD as a browser decodes it, rather than a throw that would turn
 * a readable post into `extractor-outdated`. Decoded once, left to right: `&amp;lt;` is `&lt;`.
 */
export function decodeEntities(text: string): string {
  return text.replace(/&(#[xX][0-9a-fA-F]{1,16}|#\d{1,16}|[a-zA-Z]{2,6});/g, (whole, entity: string) => {
    if (entity.startsWith("#")) {
      const hex = entity[1] === "x" || entity[1] === "X";
      const code = hex ? Number.parseInt(entity.slice(2), 16) : Number(entity.slice(1));
      const scalar = code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
      return scalar ? String.fromCodePoint(code) : "\ufffd";
    }
    return NAMED[entity.toLowerCase()] ?? whole;
  });
}

/** An attribute's value from one tag (`<video … data-sources="…">`), decoded; null when absent. */
export function attribute(tag: string, name: string): string | null {
  const match = new RegExp(`\\s${escapeRegExp(name)}="([^"]*)"`).exec(tag);
  return match?.[1] === undefined ? null : decodeEntities(match[1]);
}

/**
 * The `content` of the page's first `<meta property="…">` (Open Graph: `og:title`, `og:image`),
 * decoded, whatever the order of its attributes; null when the page has none.
 */
export function metaContent(html: string, property: string): string | null {
  const tag = new RegExp(`<meta\\b[^>]*\\sproperty="${escapeRegExp(property)}"[^>]*>`).exec(html)?.[0];
  return tag ? attribute(tag, "content") : null;
}

/**
 * An image's type from its URL's extension, for CDNs that name their files by it (pbs.twimg.com,
 * i.pinimg.com, Instagram's). A URL without a known extension is taken as JPEG, which is what
 * these CDNs serve by default.
 */
export function imageMimeTypeOf(url: string): string {
  let path: string;
  try {
    path = new URL(url).pathname.toLowerCase();
  } catch {
    return "image/jpeg";
  }
  const extension = /\.([a-z0-9]{1,5})$/.exec(path)?.[1];
  switch (extension) {
    case "png":
      return "image/png";
    case "webp":
      return "image/webp";
    case "gif":
      return "image/gif";
    case "heic":
      return "image/heic";
    case "avif":
      return "image/avif";
    default:
      return "image/jpeg";
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
