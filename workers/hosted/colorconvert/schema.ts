import { z } from "zod";

/** Longer than any notation needs ("cmyk(100.0%, 100.0%, 100.0%, 100.0%)"), short enough to parse cheaply. */
const NOTATION_MAX = 100;

const notation = () => z.string().trim().min(1).max(NOTATION_MAX, `at most ${NOTATION_MAX} characters`);
const percent = () => z.number().min(0).max(100);
/** Any finite angle; it is taken modulo 360 as CSS does. */
const hue = () => z.number();

export const RgbSchema = z.object({
  r: z.number().min(0).max(255),
  g: z.number().min(0).max(255),
  b: z.number().min(0).max(255),
});
export const HslSchema = z.object({ h: hue(), s: percent(), l: percent() });
export const HsvSchema = z.object({ h: hue(), s: percent(), v: percent() });
export const CmykSchema = z.object({ c: percent(), m: percent(), y: percent(), k: percent() });

/** The ways to give the colour; exactly one per call. */
export const INPUT_KEYS = ["hex", "rgb", "hsl", "hsv", "cmyk", "name", "color"] as const;

function requireExactlyOne(input: Partial<Record<(typeof INPUT_KEYS)[number], unknown>>, ctx: z.RefinementCtx): void {
  const given = INPUT_KEYS.filter((key) => input[key] !== undefined);
  if (given.length === 1) return;
  ctx.addIssue({
    code: "custom",
    message:
      given.length === 0
        ? `give one of ${INPUT_KEYS.join(", ")}`
        : `give only one of ${INPUT_KEYS.join(", ")} (got ${given.join(", ")})`,
    path: given.length === 0 ? [] : [given[1] ?? "color"],
  });
}

const STRING_FIELDS = {
  hex: notation().optional().describe('"#ff0000", "ff0000" or "#f00"'),
  name: notation().optional().describe('a CSS named colour such as "rebeccapurple"; case and spaces are ignored'),
  color: notation().optional().describe("one string in any of the notations above"),
};

/** The JSON body: each of rgb, hsl, hsv and cmyk as an object or a notation string. */
export const ColorInputSchema = z
  .object({
    ...STRING_FIELDS,
    rgb: z
      .union([notation(), RgbSchema])
      .optional()
      .describe('{ r, g, b } in 0–255, or "rgb(255, 0, 0)", "rgb(100% 0% 0%)", "255,0,0"'),
    hsl: z
      .union([notation(), HslSchema])
      .optional()
      .describe('{ h, s, l } with s and l in percent, or "hsl(0, 100%, 50%)"'),
    hsv: z
      .union([notation(), HsvSchema])
      .optional()
      .describe('{ h, s, v } with s and v in percent, or "hsv(0, 100%, 100%)" ("hsb(…)" too)'),
    cmyk: z.union([notation(), CmykSchema]).optional().describe('{ c, m, y, k } in percent, or "cmyk(0, 100, 100, 0)"'),
  })
  .superRefine(requireExactlyOne);

/** The query string carries only strings, so the docs list no object forms for it. */
export const ColorQuerySchema = z
  .object({
    ...STRING_FIELDS,
    rgb: notation().optional().describe('"rgb(255, 0, 0)", "rgb(100% 0% 0%)" or "255,0,0"'),
    hsl: notation().optional().describe('"hsl(0, 100%, 50%)" or "0,100%,50%"'),
    hsv: notation().optional().describe('"hsv(0, 100%, 100%)" ("hsb(…)" too)'),
    cmyk: notation().optional().describe('"cmyk(0, 100, 100, 0)", in percent'),
  })
  .superRefine(requireExactlyOne);

export type ColorInput = z.infer<typeof ColorInputSchema>;

export const ColorSchema = z.object({
  hex: z.string().regex(/^#[0-9a-f]{6}$/),
  rgb: z.object({ r: z.number().int(), g: z.number().int(), b: z.number().int() }),
  hsl: HslSchema,
  hsv: HsvSchema,
  cmyk: CmykSchema,
  name: z.string().describe("the nearest CSS named colour"),
  distance: z.number().min(0).describe("CIE76 ΔE*ab to that name: the Euclidean distance in CIELAB (D65), 2 decimals"),
  exactName: z.boolean().describe("true when the colour is exactly that named colour"),
  contrast: z
    .object({ black: z.number().min(1).max(21), white: z.number().min(1).max(21) })
    .describe("WCAG 2.x contrast ratios against black and white, 2 decimals"),
  readableOn: z.enum(["black", "white"]).describe("the background on which this colour has the higher contrast"),
});

export type Color = z.infer<typeof ColorSchema>;
