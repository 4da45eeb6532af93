/**
 * DiceBear 10: a `Style` built from a style definition plus options gives an `Avatar` whose
 * `toString()` is the SVG. `idRandomization` stays off (its default) so element ids derive from
 * the seed and options: the same request always gives the same bytes, which makes the images
 * cacheable and the API deterministic. The SVG carries DiceBear's RDF metadata: the style's
 * title, creator, source, licence and a rights line, which is the credit CC BY asks for.
 *
 * The input speaks DiceBear's HTTP API (9.x) and the engine is DiceBear 10, whose options differ:
 * scale is a factor rather than a percentage, `backgroundType`/`backgroundRotation` are
 * `backgroundColorFill`/`backgroundColorAngle`, and there is no `clip` (the canvas clip path is
 * always drawn). `toDiceBearOptions` is that translation, and `unclip` the one missing option.
 */
import { Avatar } from "@dicebear/core";
import type { AvatarInput } from "./schema";
import { loadAvatarStyle } from "./styles";

// DiceBear's colour options take hex only; eight hex digits carry alpha, so a fully transparent
// black draws no background while keeping the style's `contrastTo` rules working.
const TRANSPARENT = "#00000000";

const FILLS = { solid: "solid", gradientLinear: "linear" } as const;

export function toDiceBearOptions(input: AvatarInput): Record<string, unknown> {
  const rotation = input.backgroundRotation;
  return {
    seed: input.seed,
    size: input.size,
    borderRadius: input.radius,
    flip: input.flip ? "horizontal" : "none",
    rotate: input.rotate,
    scale: input.scale / 100,
    translateX: input.translateX,
    translateY: input.translateY,
    idRandomization: false,
    ...(input.backgroundColor && {
      backgroundColor: input.backgroundColor.map((color) => (color === "transparent" ? TRANSPARENT : color)),
    }),
    backgroundColorFill: input.backgroundType.map((type) => FILLS[type]),
    // DiceBear 9 reads the list as a range from its smallest to its largest value; 10 takes [min, max].
    backgroundColorAngle: [Math.min(...rotation), Math.max(...rotation)],
  };
}

/**
 * DiceBear 10 always wraps the drawing in `<g clip-path="url(#clip-…)">` over a canvas-sized rect
 * with the border radius, outermost in the body, and puts the clip path in `<defs>`. With
 * `clip: false` and no radius (DiceBear 9 drew no clip then) both are taken out again.
 */
function unclip(svg: string): string {
  const clipPath = /<clipPath id="(clip-[0-9a-f]+)"><rect [^>]*\/><\/clipPath>/.exec(svg);
  const wrapper = clipPath && `<g clip-path="url(#${clipPath[1]})">`;
  if (!clipPath || !wrapper || !svg.includes(wrapper) || !svg.endsWith("</g></svg>")) return svg;
  return svg
    .replace(clipPath[0], "")
    .replace("<defs></defs>", "")
    .replace(wrapper, "")
    .replace(/<\/g><\/svg>$/, "</svg>");
}

export async function createAvatarSvg(input: AvatarInput): Promise<string> {
  const svg = new Avatar(await loadAvatarStyle(input.style), toDiceBearOptions(input)).toString();
  return !input.clip && input.radius === 0 ? unclip(svg) : svg;
}
