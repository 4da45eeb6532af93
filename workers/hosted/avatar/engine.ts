/**
 * DiceBear 10: a `Style` built from a style definition plus options gives an `Avatar` whose
 * `toString()` is the SVG. `idRandomization` stays off (its default) so element ids derive from
 * the seed and options: the same request always gives the same bytes, which makes the images
 * cacheable and the API deterministic. The SVG carries DiceBear's RDF metadata: the style's
 * title, creator, source, licence and a rights line, which is the credit CC BY asks for.
 */
import { Avatar } from "@dicebear/core";
import type { AvatarInput } from "./schema";
import { loadAvatarStyle } from "./styles";

// DiceBear's colour options take hex only; eight hex digits carry alpha, so a fully transparent
// black draws no background while keeping the style's `contrastTo` rules working.
const TRANSPARENT = "#00000000";

export async function createAvatarSvg(input: AvatarInput): Promise<string> {
  const background =
    input.backgroundColor === undefined
      ? {}
      : { backgroundColor: [input.backgroundColor === "transparent" ? TRANSPARENT : input.backgroundColor] };
  return new Avatar(await loadAvatarStyle(input.style), {
    seed: input.seed,
    size: input.size,
    borderRadius: input.radius,
    flip: input.flip ? "horizontal" : "none",
    rotate: input.rotate,
    idRandomization: false,
    ...background,
  }).toString();
}
