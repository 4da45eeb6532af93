/**
 * Input of html-to-pdf. Names are Puppeteer's `PDFOptions`, which Browserless's and Cloudflare
 * Browser Rendering's `/pdf` pass through, so a body written for them mostly works here: the
 * options at the top level or inside `options` (Browserless) or `pdfOptions` (Browser
 * Rendering), `headerTemplate`/`footerTemplate`, `waitForSelector`, `waitForTimeout` and
 * `emulateMediaType` as aliases of our `headerHtml`/`footerHtml`, `waitFor` and
 * `emulateMedia`. The docs (index.ts) map each to Gotenberg's form fields too.
 */
import { z } from "zod";
import { PAPER_FORMATS, type HtmlToPdfRequest, type PaperFormat } from "~workers/hosted/capabilities";
import { LENGTH, lengthToPixels, MAX_WAIT_MS } from "~workers/engines/pdf/print-units";

// The longest `waitFor` delay (the whole call is bounded by the engine's time-out, 20 s) and the
// length reader are the browser engine's own, so the two cannot disagree.
export { lengthToPixels, MAX_WAIT_MS };

/** The largest `html` accepted, in UTF-8 bytes; the body limit leaves room for the options. */
export const MAX_HTML_BYTES = 2 * 1024 * 1024;
export const MAX_BODY_BYTES = MAX_HTML_BYTES + 128 * 1024;
/** The largest header or footer template. */
export const MAX_TEMPLATE_BYTES = 64 * 1024;
/** The margin on each side when `margin` leaves it out (Gotenberg's default is 0.39in). */
export const DEFAULT_MARGIN = "1cm";

/** 200 inches, far beyond any paper, and within what Chromium prints. */
const MAX_LENGTH_PX = 200 * 96;


/** A length: a number of CSS pixels (as Puppeteer reads one), or a string with a unit. */
const LengthSchema = z
  .union([
    z.number().min(0),
    z.string().trim().toLowerCase().regex(LENGTH, "must be a length such as 1cm, 0.5in, 10mm, 72pt or 20px"),
  ])
  .transform((length) => (typeof length === "number" ? `${length}px` : length))
  .refine((length) => lengthToPixels(length) <= MAX_LENGTH_PX, "must be at most 200in")
  .describe(
    'A length with a unit: px, in, cm, mm, pt or pc (`"1.5cm"`); a bare number is CSS pixels, as in Puppeteer.',
  );

const PaperLengthSchema = LengthSchema.refine((length) => lengthToPixels(length) >= 96 / 2.54, "must be at least 1cm");

const FormatSchema = z
  .string()
  .transform((name, ctx) => {
    const format = PAPER_FORMATS.find((candidate) => candidate.toLowerCase() === name.trim().toLowerCase());
    if (format) return format;
    ctx.addIssue({ code: "custom", message: `must be one of ${PAPER_FORMATS.join(", ")}` });
    return z.NEVER;
  })
  .pipe(z.enum(PAPER_FORMATS))
  .describe(`The paper: ${PAPER_FORMATS.join(", ")} (any case). A4 unless \`width\` and \`height\` are given.`);

const TemplateSchema = z.string().refine((text) => new TextEncoder().encode(text).length <= MAX_TEMPLATE_BYTES, {
  message: `must be at most ${MAX_TEMPLATE_BYTES / 1024} KiB`,
});

const HttpUrlSchema = z.url({ protocol: /^https?$/, message: "must be an http or https URL" });

const MediaSchema = z.enum(["print", "screen"]);

const WaitMsSchema = z.number().int().min(0).max(MAX_WAIT_MS);

/** Page ranges as Chromium reads them: `"1-3, 5, 8-"`. */
const PAGE_RANGES = /^\s*\d+\s*(?:-\s*\d*\s*)?(?:,\s*\d+\s*(?:-\s*\d*\s*)?)*$/;

const fields = {
  html: z
    .string()
    .min(1)
    .refine((html) => new TextEncoder().encode(html).length <= MAX_HTML_BYTES, {
      message: `must be at most ${MAX_HTML_BYTES / 1024 / 1024} MB`,
    })
    .optional()
    .describe("The document to print, a whole HTML page or a fragment. Give `html` or `url`, not both."),
  url: HttpUrlSchema.optional().describe(
    "A public web page to fetch and print; it and every request the page makes go through our outbound guard.",
  ),
  baseUrl: HttpUrlSchema.optional().describe(
    "With `html`: the address the document is printed at, so its relative links, images and style sheets resolve against it.",
  ),
  format: FormatSchema.optional(),
  width: PaperLengthSchema.optional().describe(
    "The paper's width, with `height` (instead of `format`). Gotenberg: `paperWidth`.",
  ),
  height: PaperLengthSchema.optional().describe(
    "The paper's height, with `width` (instead of `format`). Gotenberg: `paperHeight`.",
  ),
  landscape: z.boolean().default(false).describe("Turn the paper sideways."),
  preferCSSPageSize: z
    .boolean()
    .default(false)
    .describe(
      "Let the page's CSS `@page { size: … }` choose the paper instead of `format` or `width`/`height` (the browser engines). Gotenberg: `preferCssPageSize`.",
    ),
  margin: z
    .object({
      top: LengthSchema.optional(),
      right: LengthSchema.optional(),
      bottom: LengthSchema.optional(),
      left: LengthSchema.optional(),
    })
    .strict()
    .optional()
    .describe(
      `The page margins, each a length; a side left out is ${DEFAULT_MARGIN}. Headers and footers print inside the top and bottom margins. Gotenberg: \`marginTop\`, \`marginRight\`, \`marginBottom\`, \`marginLeft\`.`,
    ),
  printBackground: z
    .boolean()
    .default(false)
    .describe("Print background colours and images (browsers leave them out by default)."),
  scale: z.number().min(0.1).max(2).default(1).describe("Zoom of the page's content, 0.1–2."),
  pageRanges: z
    .string()
    // A refinement rather than a regex, so the docs show the example, not the pattern.
    .refine((ranges) => PAGE_RANGES.test(ranges), 'must be page numbers and ranges such as "1-3, 5"')
    .optional()
    .describe('Pages to keep, such as `"1-3, 5"` (from 1); every page when left out. Gotenberg: `nativePageRanges`.'),
  headerHtml: TemplateSchema.optional().describe(
    'HTML printed at the top of every page. `<span class="pageNumber"></span>`, `totalPages`, `date`, `title` and `url` are filled in. Gotenberg: the `header.html` file.',
  ),
  footerHtml: TemplateSchema.optional().describe(
    'HTML printed at the bottom of every page, e.g. `Page <span class="pageNumber"></span> of <span class="totalPages"></span>`. Gotenberg: the `footer.html` file.',
  ),
  headerTemplate: TemplateSchema.optional().describe("Puppeteer's name for `headerHtml`."),
  footerTemplate: TemplateSchema.optional().describe("Puppeteer's name for `footerHtml`."),
  displayHeaderFooter: z
    .boolean()
    .optional()
    .describe("Puppeteer's switch: `false` leaves the header and footer out; they print whenever given otherwise."),
  waitFor: z
    .union([z.string().min(1).max(1024), WaitMsSchema])
    .optional()
    .describe(
      `Before printing, wait for a CSS selector to match (a string) or for a number of milliseconds (at most ${MAX_WAIT_MS}; Gotenberg's \`waitDelay\`).`,
    ),
  waitForSelector: z
    .union([
      z.string().min(1).max(1024),
      z.object({ selector: z.string().min(1).max(1024), timeout: WaitMsSchema.optional() }).loose(),
    ])
    .optional()
    .describe(
      `Browserless's and Browser Rendering's name for a selector \`waitFor\`: a string, or \`{selector, timeout}\` to give up sooner than ${MAX_WAIT_MS} ms.`,
    ),
  waitForTimeout: WaitMsSchema.optional().describe("Browserless's and Browser Rendering's name for a delay `waitFor`."),
  emulateMedia: MediaSchema.optional().describe(
    "The CSS media type the page is laid out for: `print` (the default) or `screen`. Gotenberg: `emulatedMediaType`.",
  ),
  emulateMediaType: MediaSchema.optional().describe("Puppeteer's name for `emulateMedia`."),
  engine: z
    .enum(["auto", "browser", "embedded"])
    .default("auto")
    .describe(
      "`auto`: the best engine here (a browser where there is one). `browser` or `embedded` ask for that kind, or a 503.",
    ),
};

/** Browserless's `options` and Browser Rendering's `pdfOptions` lifted to the top level. */
function liftNestedOptions(raw: unknown): unknown {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return raw;
  const { options, pdfOptions, ...rest } = raw as Record<string, unknown>;
  const nested = { ...(isRecord(options) ? options : {}), ...(isRecord(pdfOptions) ? pdfOptions : {}) };
  const lifted: Record<string, unknown> = { ...nested, ...rest };
  if (options !== undefined && !isRecord(options)) lifted.options = options;
  if (pdfOptions !== undefined && !isRecord(pdfOptions)) lifted.pdfOptions = pdfOptions;
  return lifted;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const HtmlToPdfObjectSchema = z.object(fields).superRefine((input, ctx) => {
  const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
  if ((input.html === undefined) === (input.url === undefined)) {
    issue(input.html === undefined ? "html" : "url", "give exactly one of html or url");
  }
  if (input.baseUrl !== undefined && input.html === undefined)
    issue("baseUrl", "goes with html (a url is its own base)");
  if ((input.width === undefined) !== (input.height === undefined)) {
    issue(input.width === undefined ? "width" : "height", "give width and height together");
  }
  if (input.format !== undefined && input.width !== undefined)
    issue("format", "give format, or width and height, not both");
  if (input.headerHtml !== undefined && input.headerTemplate !== undefined)
    issue("headerTemplate", "give headerHtml or headerTemplate, not both");
  if (input.footerHtml !== undefined && input.footerTemplate !== undefined)
    issue("footerTemplate", "give footerHtml or footerTemplate, not both");
  if (input.emulateMedia !== undefined && input.emulateMediaType !== undefined)
    issue("emulateMediaType", "give emulateMedia or emulateMediaType, not both");
  const waits = (["waitFor", "waitForSelector", "waitForTimeout"] as const).filter((name) => input[name] !== undefined);
  if (waits.length > 1) issue(waits[1] ?? "waitFor", `give one of ${waits.join(" and ")}`);
  const paperPx =
    input.width !== undefined && input.height !== undefined
      ? { width: lengthToPixels(input.width), height: lengthToPixels(input.height) }
      : undefined;
  if (paperPx && input.margin) {
    const side = (name: "top" | "right" | "bottom" | "left") => lengthToPixels(input.margin?.[name] ?? DEFAULT_MARGIN);
    const [across, down] = input.landscape ? [paperPx.height, paperPx.width] : [paperPx.width, paperPx.height];
    if (side("left") + side("right") >= across)
      issue("margin", "the left and right margins leave no room on the paper");
    if (side("top") + side("bottom") >= down) issue("margin", "the top and bottom margins leave no room on the paper");
  }
});

export const HtmlToPdfInputSchema = z.preprocess(liftNestedOptions, HtmlToPdfObjectSchema);

export type HtmlToPdfInput = z.output<typeof HtmlToPdfObjectSchema>;

/** The engine's request, from the validated input (aliases folded, defaults filled). */
export function toEngineRequest(input: HtmlToPdfInput, timeoutMs: number): HtmlToPdfRequest {
  const showHeaderFooter = input.displayHeaderFooter !== false;
  const headerHtml = showHeaderFooter ? (input.headerHtml ?? input.headerTemplate) : undefined;
  const footerHtml = showHeaderFooter ? (input.footerHtml ?? input.footerTemplate) : undefined;
  const selector =
    typeof input.waitFor === "string"
      ? input.waitFor
      : typeof input.waitForSelector === "string"
        ? input.waitForSelector
        : input.waitForSelector?.selector;
  const selectorTimeout = typeof input.waitForSelector === "object" ? input.waitForSelector.timeout : undefined;
  const ms = typeof input.waitFor === "number" ? input.waitFor : input.waitForTimeout;
  return {
    source:
      input.html !== undefined
        ? { html: input.html, ...(input.baseUrl && { baseUrl: input.baseUrl }) }
        : { url: input.url ?? "" },
    engine: input.engine,
    paper:
      input.width !== undefined && input.height !== undefined
        ? { width: input.width, height: input.height }
        : { format: (input.format ?? "A4") as PaperFormat },
    landscape: input.landscape,
    ...(input.preferCSSPageSize && { preferCssPageSize: true }),
    margin: {
      top: input.margin?.top ?? DEFAULT_MARGIN,
      right: input.margin?.right ?? DEFAULT_MARGIN,
      bottom: input.margin?.bottom ?? DEFAULT_MARGIN,
      left: input.margin?.left ?? DEFAULT_MARGIN,
    },
    printBackground: input.printBackground,
    scale: input.scale,
    ...(input.pageRanges && { pageRanges: input.pageRanges.replace(/\s+/g, "") }),
    ...(headerHtml !== undefined && { headerHtml }),
    ...(footerHtml !== undefined && { footerHtml }),
    ...(selector !== undefined
      ? { waitFor: { selector, ...(selectorTimeout !== undefined && { timeoutMs: selectorTimeout }) } }
      : ms !== undefined
        ? { waitFor: { ms } }
        : {}),
    emulateMedia: input.emulateMedia ?? input.emulateMediaType ?? "print",
    timeoutMs,
  };
}
