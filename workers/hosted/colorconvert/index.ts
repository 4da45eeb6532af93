/**
 * Color Converter: one colour in any common notation (CSS Color 4's included), back in every
 * notation with its nearest CSS name and WCAG contrast figures; and schemes built from one colour.
 * Pure TypeScript, no engine beyond `convert-color.ts` and `scheme.ts`.
 */
import { defineOperation, type HostedApiDefinition } from "../definition";
import { handleConvertColor } from "./handler";
import { handleColorScheme } from "./scheme";
import {
  ColorInputSchema,
  ColorQuerySchema,
  ColorSchema,
  SCHEME_COUNT_MAX,
  SchemeQuerySchema,
  SchemeSchema,
} from "./schema";

const DESCRIPTION =
  "Give exactly one of `hex` (#rrggbb, #rgb, or with alpha #rrggbbaa, #rgba), `rgb`, `hsl`, `hsv`, `cmyk`, `lab`, `lch`, `oklab`, `oklch`, `xyz` (each an object or a CSS Color 4 notation such as `rgb(255 0 0 / 0.5)`, `lab(54.29 80.8 69.89)`, `oklch(62.8% 0.2577 29.23)` or `color(xyz-d65 0.4124 0.2126 0.0193)`), `name` (one of the 148 CSS named colours, or one of the 4,961 names of color-name-list's best-of selection such as `Absolute Zero`; CSS names win) or `color` (a string in any of these notations). " +
  "Alpha is read after a slash (`/ 0.5` or `/ 50%`), as a fourth value in the legacy comma form (`rgba(255, 0, 0, 0.5)`), from #rrggbbaa, or as `alpha` in an object form, and is carried into `alpha`, `hex8` and the `css` strings. " +
  "Percentages are 0–100. Every output form is derived from the same 8-bit sRGB value, with HSL, HSV and CMYK rounded to one decimal (CMYK is the plain, profile-free conversion). " +
  "`lab` and `lch` are CSS Color 4's: CIE Lab relative to D50 (Bradford-adapted from sRGB's D65), 2 decimals (precisions with which every 8-bit colour reads back as itself); `oklab` and `oklch` are Ottosson's OKLab, 5 decimals (hue 3); `xyz` is CIE XYZ relative to D65 with white at Y = 1, 5 decimals. A Lab, LCH, OKLab, OKLCH or XYZ input outside sRGB is clipped channel by channel and flagged `inGamut: false`. " +
  "`name` is the nearest CSS named colour by CIE76 ΔE*ab, the Euclidean distance in CIELAB under D65, given in `distance` (0 when `exactName`; a ΔE below about 2.3 is hard to see). " +
  "`extendedName` is the nearest name, by the same measure, in that larger list (color-name-list 14.51.0, best of, MIT), which the answer names in `extendedName.list`. " +
  "`contrast` holds the WCAG 2.x contrast ratios against black and white (1 to 21), and `readableOn` names the one with the higher ratio.";

/** #3366cc as the conversion answers it: the examples of the conversions and of the scheme's seed. */
const ROYAL_BLUE = {
  hex: "#3366cc",
  hex8: "#3366ccff",
  alpha: 1,
  rgb: { r: 51, g: 102, b: 204 },
  hsl: { h: 220, s: 60, l: 50 },
  hsv: { h: 220, s: 75, v: 80 },
  cmyk: { c: 75, m: 50, y: 0, k: 20 },
  name: "royalblue",
  distance: 10.94,
  exactName: false,
  contrast: { black: 3.91, white: 5.37 },
  readableOn: "white",
  lab: { l: 44.12, a: 10.95, b: -59.09 },
  lch: { l: 44.12, c: 60.09, h: 280.5 },
  oklab: { l: 0.53248, a: -0.02251, b: -0.16635 },
  oklch: { l: 0.53248, c: 0.16787, h: 262.293 },
  xyz: { x: 0.17014, y: 0.14565, z: 0.59043 },
  inGamut: true,
  extendedName: {
    list: "color-name-list 14.51.0, best of (MIT)",
    name: "God of Rain",
    distance: 2.77,
  },
  css: {
    hex: "#3366cc",
    rgb: "rgb(51 102 204)",
    hsl: "hsl(220 60% 50%)",
    lab: "lab(44.12 10.95 -59.09)",
    lch: "lch(44.12 60.09 280.5)",
    oklab: "oklab(0.53248 -0.02251 -0.16635)",
    oklch: "oklch(0.53248 0.16787 262.293)",
    xyz: "color(xyz-d65 0.17014 0.14565 0.59043)",
  },
};

export const definition: HostedApiDefinition = {
  slug: "colorconvert",
  operations: [
    defineOperation({
      id: "convertColor",
      method: "GET",
      path: "",
      summary: "Convert a colour given in the query string",
      description: DESCRIPTION,
      inputSource: "query",
      input: ColorQuerySchema,
      output: {
        kind: "json",
        schema: ColorSchema,
        example: ROYAL_BLUE,
      },
      example: { hex: "#3366cc" },
      handler: handleConvertColor,
    }),
    defineOperation({
      id: "convertColorJson",
      method: "POST",
      path: "",
      summary: "Convert a colour given in a JSON body",
      description: `${DESCRIPTION} The body form also takes objects, each with an optional \`alpha\`: \`{ "oklch": { "l": 0.628, "c": 0.2577, "h": 29.23, "alpha": 0.5 } }\`.`,
      inputSource: "json",
      input: ColorInputSchema,
      output: {
        kind: "json",
        schema: ColorSchema,
        example: {
          hex: "#ff0000",
          hex8: "#ff000080",
          alpha: 0.5,
          rgb: { r: 255, g: 0, b: 0 },
          hsl: { h: 0, s: 100, l: 50 },
          hsv: { h: 0, s: 100, v: 100 },
          cmyk: { c: 0, m: 100, y: 100, k: 0 },
          name: "red",
          distance: 0,
          exactName: true,
          contrast: { black: 5.25, white: 4 },
          readableOn: "black",
          lab: { l: 54.29, a: 80.8, b: 69.89 },
          lch: { l: 54.29, c: 106.84, h: 40.86 },
          oklab: { l: 0.62796, a: 0.22486, b: 0.12585 },
          oklch: { l: 0.62796, c: 0.25768, h: 29.234 },
          xyz: { x: 0.41239, y: 0.21264, z: 0.01933 },
          inGamut: true,
          extendedName: {
            list: "color-name-list 14.51.0, best of (MIT)",
            name: "Red",
            distance: 0,
          },
          css: {
            hex: "#ff000080",
            rgb: "rgb(255 0 0 / 0.5)",
            hsl: "hsl(0 100% 50% / 0.5)",
            lab: "lab(54.29 80.8 69.89 / 0.5)",
            lch: "lch(54.29 106.84 40.86 / 0.5)",
            oklab: "oklab(0.62796 0.22486 0.12585 / 0.5)",
            oklch: "oklch(0.62796 0.25768 29.234 / 0.5)",
            xyz: "color(xyz-d65 0.41239 0.21264 0.01933 / 0.5)",
          },
        },
      },
      example: { oklch: { l: 0.628, c: 0.2577, h: 29.23, alpha: 0.5 } },
      handler: handleConvertColor,
    }),
    defineOperation({
      id: "colorScheme",
      method: "GET",
      path: "/scheme",
      summary: "Build a colour scheme from one colour",
      description:
        "Give one colour exactly as for the conversion (any one of `hex`, `rgb`, `hsl`, `hsv`, `cmyk`, `lab`, `lch`, `oklab`, `oklch`, `xyz`, `name`, `color`), a `mode` and optionally a `count` (1–" +
        SCHEME_COUNT_MAX +
        "). The scheme is turned in HSL from the seed's printed `hsl`, keeping its saturation: " +
        "`monochrome` keeps the hue and spaces the lightness evenly at (i + 1) / (count + 1), without black and white (default 5); " +
        "`analogous` steps the hue 30° at a time, centred on the seed (default 5); " +
        "`complementary`, `triad` and `quad` add 180°, 120° or 90° steps to the seed's hue (defaults 2, 3 and 4, the seed first); a larger count repeats the hues in rounds, each round lighter then darker by 10, 20… percentage points (clamped to 0–100). " +
        "Each colour is described as the conversion describes it, with the seed's alpha.",
      inputSource: "query",
      input: SchemeQuerySchema,
      output: {
        kind: "json",
        schema: SchemeSchema,
        example: {
          mode: "complementary",
          seed: ROYAL_BLUE,
          colors: [
            ROYAL_BLUE,
            {
              hex: "#cc9933",
              hex8: "#cc9933ff",
              alpha: 1,
              rgb: { r: 204, g: 153, b: 51 },
              hsl: { h: 40, s: 60, l: 50 },
              hsv: { h: 40, s: 75, v: 80 },
              cmyk: { c: 0, m: 25, y: 75, k: 20 },
              name: "darkgoldenrod",
              distance: 8.65,
              exactName: false,
              contrast: { black: 8.17, white: 2.57 },
              readableOn: "black",
              lab: { l: 66.88, a: 12.76, b: 58.06 },
              lch: { l: 66.88, c: 59.44, h: 77.61 },
              oklab: { l: 0.71396, a: 0.02082, b: 0.12762 },
              oklch: { l: 0.71396, c: 0.12931, h: 80.736 },
              xyz: { x: 0.36889, y: 0.3586, z: 0.08111 },
              inGamut: true,
              extendedName: {
                list: "color-name-list 14.51.0, best of (MIT)",
                name: "Local Curry",
                distance: 3.38,
              },
              css: {
                hex: "#cc9933",
                rgb: "rgb(204 153 51)",
                hsl: "hsl(40 60% 50%)",
                lab: "lab(66.88 12.76 58.06)",
                lch: "lch(66.88 59.44 77.61)",
                oklab: "oklab(0.71396 0.02082 0.12762)",
                oklch: "oklch(0.71396 0.12931 80.736)",
                xyz: "color(xyz-d65 0.36889 0.3586 0.08111)",
              },
            },
          ],
        },
      },
      example: { hex: "#3366cc", mode: "complementary" },
      handler: handleColorScheme,
    }),
  ],
};
