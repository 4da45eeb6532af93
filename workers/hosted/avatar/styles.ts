/**
 * The DiceBear styles this API offers. Each style has its own licence (in its definition's
 * `meta.license`); only those that allow commercial use without attribution on every image are
 * here. CC BY 4.0 styles (adventurer, big-smile, micah, …) are left out because a hosted image
 * cannot carry the credit line they require. `glass` (CC0) is left out because its blur filters
 * take resvg over 3 s for a 1024 px PNG.
 *
 * Definitions are imported statically: a Worker bundles every module anyway, and these nine add
 * about 230 KB before compression.
 */
import { Style } from "@dicebear/core";
import bottsNeutral from "@dicebear/styles/bottts-neutral.json";
import identicon from "@dicebear/styles/identicon.json";
import initials from "@dicebear/styles/initials.json";
import loreleiNeutral from "@dicebear/styles/lorelei-neutral.json";
import notionistsNeutral from "@dicebear/styles/notionists-neutral.json";
import pixelArt from "@dicebear/styles/pixel-art.json";
import rings from "@dicebear/styles/rings.json";
import shapes from "@dicebear/styles/shapes.json";
import thumbs from "@dicebear/styles/thumbs.json";

export const AVATAR_STYLES = [
  "identicon",
  "initials",
  "shapes",
  "rings",
  "thumbs",
  "pixel-art",
  "lorelei-neutral",
  "notionists-neutral",
  "bottts-neutral",
] as const;

export type AvatarStyle = (typeof AVATAR_STYLES)[number];

/** The licence each style's definition declares, checked by the tests against `meta.license.name`. */
export const AVATAR_STYLE_LICENSES: Record<AvatarStyle, string> = {
  identicon: "CC0 1.0",
  initials: "CC0 1.0",
  shapes: "CC0 1.0",
  rings: "CC0 1.0",
  thumbs: "CC0 1.0",
  "pixel-art": "CC0 1.0",
  "lorelei-neutral": "CC0 1.0",
  "notionists-neutral": "CC0 1.0",
  // Pablo Stanley's Bottts: "Free for personal and commercial use" (https://bottts.com/).
  "bottts-neutral": "Free for personal and commercial use",
};

// Typed as `unknown` on purpose: the definitions' literal JSON types would make TypeScript derive
// per-style option types we never use, at a real cost in type-checking time.
export const AVATAR_STYLE_DEFINITIONS: Record<AvatarStyle, unknown> = {
  identicon,
  initials,
  shapes,
  rings,
  thumbs,
  "pixel-art": pixelArt,
  "lorelei-neutral": loreleiNeutral,
  "notionists-neutral": notionistsNeutral,
  "bottts-neutral": bottsNeutral,
};

const styles = new Map<AvatarStyle, Style>();

/** A validated `Style`, built once per isolate: its constructor runs a JSON Schema validation. */
export function getAvatarStyle(name: AvatarStyle): Style {
  let style = styles.get(name);
  if (!style) {
    style = new Style(AVATAR_STYLE_DEFINITIONS[name]);
    styles.set(name, style);
  }
  return style;
}
