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
/** CSS Color 4's lab(): CIE Lab relative to D50, L 0–100. */
export const LabSchema = z.object({ l: percent(), a: z.number(), b: z.number() });
export const LchSchema = z.object({ l: percent(), c: z.number().min(0), h: hue() });
export const OklabSchema = z.object({ l: z.number().min(0).max(1), a: z.number(), b: z.number() });
export const OklchSchema = z.object({ l: z.number().min(0).max(1), c: z.number().min(0), h: hue() });
/** CIE XYZ relative to D65, Y = 1 for white, as CSS's color(xyz-d65 …). */
export const XyzSchema = z.object({ x: z.number(), y: z.number(), z: z.number() });

/** The object forms of the input each take an optional alpha, as the notations do after "/". */
const alpha = () => z.number().min(0).max(1).optional().describe("opacity, 0–1; 1 when absent");
const withAlpha = <Shape extends z.ZodRawShape>(schema: z.ZodObject<Shape>) => schema.extend({ alpha: alpha() });

/** The ways to give the colour; exactly one per call. */
export const INPUT_KEYS = [
  "hex",
  "rgb",
  "hsl",
  "hsv",
  "cmyk",
  "lab",
  "lch",
  "oklab",
  "oklch",
  "xyz",
  "name",
  "color",
] as const;

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
  hex: notation().optional().describe('"#ff0000", "ff0000", "#f00", or with alpha "#ff000080" or "#f008"'),
  name: notation()
    .optional()
    .describe(
      'a CSS named colour such as "rebeccapurple", or a name from color-name-list\'s best of such as "Absolute Zero"; case and spaces are ignored, and CSS names win',
    ),
  color: notation().optional().describe("one string in any of the notations above"),
};

const WIDE_NOTATIONS = {
  lab: 'CSS Color 4 lab() (CIE Lab, D50): "lab(54.29 80.8 69.89)", "lab(54% 65% 56% / 0.5)"',
  lch: 'CSS Color 4 lch(): "lch(54.29 106.84 40.85)"',
  oklab: '"oklab(0.628 0.2249 0.1258)"',
  oklch: '"oklch(0.628 0.2577 29.23)", "oklch(62.8% 0.2577 29.23 / 50%)"',
  xyz: 'CIE XYZ (D65, white Y = 1): "color(xyz-d65 0.4124 0.2126 0.0193)"; color(xyz-d50 …) and color(srgb …) are read too',
};

/** The JSON body: each of rgb, hsl, hsv, cmyk, lab, lch, oklab, oklch and xyz as an object or a notation string. */
export const ColorInputSchema = z
  .object({
    ...STRING_FIELDS,
    rgb: z
      .union([notation(), withAlpha(RgbSchema)])
      .optional()
      .describe('{ r, g, b, alpha? } in 0–255, or "rgb(255, 0, 0)", "rgb(100% 0% 0% / 0.5)", "255,0,0"'),
    hsl: z
      .union([notation(), withAlpha(HslSchema)])
      .optional()
      .describe('{ h, s, l, alpha? } with s and l in percent, or "hsl(0, 100%, 50%)", "hsl(0 100% 50% / 50%)"'),
    hsv: z
      .union([notation(), withAlpha(HsvSchema)])
      .optional()
      .describe('{ h, s, v, alpha? } with s and v in percent, or "hsv(0, 100%, 100%)" ("hsb(…)" too)'),
    cmyk: z
      .union([notation(), withAlpha(CmykSchema)])
      .optional()
      .describe('{ c, m, y, k, alpha? } in percent, or "cmyk(0, 100, 100, 0)"'),
    lab: z
      .union([notation(), withAlpha(LabSchema)])
      .optional()
      .describe(`{ l, a, b, alpha? }, or ${WIDE_NOTATIONS.lab}`),
    lch: z
      .union([notation(), withAlpha(LchSchema)])
      .optional()
      .describe(`{ l, c, h, alpha? }, or ${WIDE_NOTATIONS.lch}`),
    oklab: z
      .union([notation(), withAlpha(OklabSchema)])
      .optional()
      .describe(`{ l, a, b, alpha? } with l 0–1, or ${WIDE_NOTATIONS.oklab}`),
    oklch: z
      .union([notation(), withAlpha(OklchSchema)])
      .optional()
      .describe(`{ l, c, h, alpha? } with l 0–1, or ${WIDE_NOTATIONS.oklch}`),
    xyz: z
      .union([notation(), withAlpha(XyzSchema)])
      .optional()
      .describe(`{ x, y, z, alpha? }, or ${WIDE_NOTATIONS.xyz}`),
  })
  .superRefine(requireExactlyOne);

/** The query string's colour fields, shared by the scheme operation. */
const QUERY_FIELDS = {
  ...STRING_FIELDS,
  rgb: notation().optional().describe('"rgb(255, 0, 0)", "rgb(100% 0% 0%)" or "255,0,0"'),
  hsl: notation().optional().describe('"hsl(0, 100%, 50%)" or "0,100%,50%"'),
  hsv: notation().optional().describe('"hsv(0, 100%, 100%)" ("hsb(…)" too)'),
  cmyk: notation().optional().describe('"cmyk(0, 100, 100, 0)", in percent'),
  lab: notation().optional().describe(WIDE_NOTATIONS.lab),
  lch: notation().optional().describe(WIDE_NOTATIONS.lch),
  oklab: notation().optional().describe(WIDE_NOTATIONS.oklab),
  oklch: notation().optional().describe(WIDE_NOTATIONS.oklch),
  xyz: notation().optional().describe(WIDE_NOTATIONS.xyz),
};

/** The query string carries only strings, so the docs list no object forms for it. */
export const ColorQuerySchema = z.object(QUERY_FIELDS).superRefine(requireExactlyOne);

export const SCHEME_MODES = ["monochrome", "analogous", "complementary", "triad", "quad"] as const;
export const SCHEME_COUNT_MAX = 24;

export const SchemeQuerySchema = z
  .object({
    ...QUERY_FIELDS,
    mode: z.enum(SCHEME_MODES).describe("which harmony to build from the colour"),
    count: z.coerce
      .number()
      .int()
      .min(1)
      .max(SCHEME_COUNT_MAX)
      .optional()
      .describe(
        `how many colours, 1–${SCHEME_COUNT_MAX}; by default 5 for monochrome and analogous, 2, 3 and 4 for complementary, triad and quad`,
      ),
  })
  .superRefine(requireExactlyOne);

export type SchemeQuery = z.infer<typeof SchemeQuerySchema>;

export type ColorInput = z.infer<typeof ColorInputSchema>;

export const ColorSchema = z.object({
  hex: z.string().regex(/^#[0-9a-f]{6}$/),
  hex8: z
    .string()
    .regex(/^#[0-9a-f]{8}$/)
    .describe("#rrggbbaa: the hex with the alpha as a byte"),
  alpha: z.number().min(0).max(1).describe("opacity as given, 0–1, 3 decimals; 1 when the input had none"),
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
  lab: LabSchema.describe(
    "CIE Lab as CSS Color 4's lab(): relative to D50 (Bradford-adapted from sRGB's D65), 2 decimals",
  ),
  lch: LchSchema.describe("CIE LCh of that Lab, 2 decimals; h is 0 when c rounds to 0"),
  oklab: OklabSchema.describe("OKLab (Ottosson), 5 decimals"),
  oklch: OklchSchema.describe("OKLCh, l and c to 5 decimals, h to 3; h is 0 when c rounds to 0"),
  xyz: XyzSchema.describe("CIE XYZ relative to D65 with white at Y = 1, CSS's color(xyz-d65 …), 5 decimals"),
  inGamut: z
    .boolean()
    .describe("false when a Lab, LCH, OKLab, OKLCH or XYZ input lay outside sRGB and was clipped channel by channel"),
  extendedName: z
    .object({
      list: z.string().describe("the list the name comes from, with its version and licence"),
      name: z.string(),
      distance: z.number().min(0).describe("CIE76 ΔE*ab to that name, as for `distance`"),
    })
    .describe("the nearest name in a larger list than CSS's: 4,961 names from color-name-list's best-of selection"),
  css: z
    .object({
      hex: z.string(),
      rgb: z.string(),
      hsl: z.string(),
      lab: z.string(),
      lch: z.string(),
      oklab: z.string(),
      oklch: z.string(),
      xyz: z.string(),
    })
    .describe('each form as a CSS Color 4 string, with " / alpha" (and #rrggbbaa) when the colour is not opaque'),
});

export type Color = z.infer<typeof ColorSchema>;

export const SchemeSchema = z.object({
  mode: z.enum(SCHEME_MODES),
  seed: ColorSchema.describe("the colour the scheme was built from"),
  colors: z.array(ColorSchema).describe("the scheme, in the order its definition gives"),
});
