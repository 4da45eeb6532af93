/**
 * Colour schemes as the classic colour wheel defines them, turned in HSL as The Color API and
 * most design tools do: the seed's saturation is kept, and the hue (or, for monochrome, the
 * lightness) is stepped. Each scheme colour is then described like any converted colour.
 */
import { json, problemResult, type HandlerResult, type OperationContext } from "../definition";
import { describeColor, parseColorInput, rgbFromHsl } from "./convert-color";
import { INPUT_KEYS, type SchemeQuery, type SCHEME_MODES } from "./schema";

type Mode = (typeof SCHEME_MODES)[number];
type Hsl = { h: number; s: number; l: number };

/** The hues of each harmony, as turns from the seed's hue. */
const HARMONY_OFFSETS = { complementary: [0, 180], triad: [0, 120, 240], quad: [0, 90, 180, 270] } as const;
export const DEFAULT_COUNT: Record<Mode, number> = {
  monochrome: 5,
  analogous: 5,
  complementary: 2,
  triad: 3,
  quad: 4,
};
/** Neighbours on the wheel for analogous schemes. */
export const ANALOGOUS_STEP = 30;
/** How far each further round of a harmony moves in lightness (percentage points). */
export const ROUND_LIGHTNESS_STEP = 10;

const wrap = (hue: number) => ((hue % 360) + 360) % 360;
const clampPercent = (value: number) => Math.min(100, Math.max(0, value));

/**
 * The HSL of each colour in a scheme. monochrome: the seed's hue and saturation at lightness
 * (i + 1) / (count + 1), evenly spaced without black and white. analogous: hues 30° apart,
 * centred on the seed. complementary, triad, quad: the seed's hue plus 180°, 120° or 90° steps;
 * past the first round the hues repeat, lighter and darker by 10, 20… points in turn.
 */
export function schemeHsl(seed: Hsl, mode: Mode, count: number): Hsl[] {
  return Array.from({ length: count }, (_, index) => {
    if (mode === "monochrome") return { h: seed.h, s: seed.s, l: ((index + 1) / (count + 1)) * 100 };
    if (mode === "analogous") {
      return { h: wrap(seed.h + (index - Math.floor((count - 1) / 2)) * ANALOGOUS_STEP), s: seed.s, l: seed.l };
    }
    const offsets = HARMONY_OFFSETS[mode];
    const round = Math.floor(index / offsets.length);
    const shift = (round % 2 === 1 ? 1 : -1) * Math.ceil(round / 2) * ROUND_LIGHTNESS_STEP;
    return { h: wrap(seed.h + (offsets[index % offsets.length] ?? 0)), s: seed.s, l: clampPercent(seed.l + shift) };
  });
}

export async function handleColorScheme(input: SchemeQuery, _ctx: OperationContext): Promise<HandlerResult> {
  const parsed = parseColorInput(input);
  if (!parsed.ok) {
    const field = INPUT_KEYS.find((key) => input[key] !== undefined);
    return problemResult("invalid-input", parsed.message, { errors: { [field ?? "color"]: parsed.message } });
  }
  const carried = { alpha: parsed.alpha, inGamut: parsed.inGamut, extendedName: parsed.extendedName };
  const seed = describeColor(parsed.rgb, parsed.name, carried);
  const count = input.count ?? DEFAULT_COUNT[input.mode];
  const colors = schemeHsl(seed.hsl, input.mode, count).map(({ h, s, l }) =>
    describeColor(rgbFromHsl(h, s / 100, l / 100), undefined, { alpha: parsed.alpha }),
  );
  return json({ mode: input.mode, seed, colors });
}
