/**
 * Color Converter: one colour in any common notation, back in every notation with its nearest
 * CSS name and WCAG contrast figures. Pure TypeScript, no engine beyond `convert-color.ts`.
 */
import { defineOperation, type HostedApiDefinition } from "../definition";
import { handleConvertColor } from "./handler";
import { ColorInputSchema, ColorQuerySchema, ColorSchema } from "./schema";

const DESCRIPTION =
  "Give exactly one of `hex` (#rrggbb or #rgb), `rgb`, `hsl`, `hsv`, `cmyk` (each an object or a notation such as `rgb(255, 0, 0)`), `name` (one of the 148 CSS named colours) or `color` (a string in any of these notations). " +
  "Percentages are 0–100; alpha is not supported. Every output form is derived from the same 8-bit sRGB value, with HSL, HSV and CMYK rounded to one decimal (CMYK is the plain, profile-free conversion). " +
  "`name` is the nearest CSS named colour by CIE76 ΔE*ab, the Euclidean distance in CIELAB under D65, given in `distance` (0 when `exactName`; a ΔE below about 2.3 is hard to see). " +
  "`contrast` holds the WCAG 2.x contrast ratios against black and white (1 to 21), and `readableOn` names the one with the higher ratio.";

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
        example: {
          hex: "#3366cc",
          rgb: { r: 51, g: 102, b: 204 },
          hsl: { h: 220, s: 60, l: 50 },
          hsv: { h: 220, s: 75, v: 80 },
          cmyk: { c: 75, m: 50, y: 0, k: 20 },
          name: "royalblue",
          distance: 10.94,
          exactName: false,
          contrast: { black: 3.91, white: 5.37 },
          readableOn: "white",
        },
      },
      example: { hex: "#3366cc" },
      handler: handleConvertColor,
    }),
    defineOperation({
      id: "convertColorJson",
      method: "POST",
      path: "",
      summary: "Convert a colour given in a JSON body",
      description: `${DESCRIPTION} The body form also takes objects: \`{ "rgb": { "r": 102, "g": 51, "b": 153 } }\`.`,
      inputSource: "json",
      input: ColorInputSchema,
      output: {
        kind: "json",
        schema: ColorSchema,
        example: {
          hex: "#663399",
          rgb: { r: 102, g: 51, b: 153 },
          hsl: { h: 270, s: 50, l: 40 },
          hsv: { h: 270, s: 66.7, v: 60 },
          cmyk: { c: 33.3, m: 66.7, y: 0, k: 40 },
          name: "rebeccapurple",
          distance: 0,
          exactName: true,
          contrast: { black: 2.5, white: 8.41 },
          readableOn: "white",
        },
      },
      example: { rgb: { r: 102, g: 51, b: 153 } },
      handler: handleConvertColor,
    }),
  ],
};
