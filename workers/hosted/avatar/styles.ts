/**
 * The DiceBear styles this API offers: every style in @dicebear/styles whose licence allows use
 * in a commercial product (decision 044). Today that is all 61 of them: 42 CC0 1.0, 14 CC BY 4.0,
 * 4 "Free for personal and commercial use" (Pablo Stanley's Avataaars and Bottts) and 1 MIT
 * (Bootstrap Icons). CC BY 4.0 and MIT ask for credit, so every answer carries it: the SVG has
 * DiceBear's own RDF metadata (title, creator, source, licence, rights), and every format gets a
 * `Link: <licence>; rel="license"` header and an `X-Avatar-Attribution` line (see
 * `attributionHeaders`). The tests read each definition's `meta` and fail on a licence nobody
 * has reviewed here, so a DiceBear upgrade cannot slip a non-commercial style in.
 *
 * The definitions weigh 2.9 MB (717 KB gzip) together, so each is a dynamic import: the bundler
 * makes it a chunk of its own, parsed the first time an isolate draws that style rather than
 * at every isolate's start-up (most calls to this Worker are not avatars).
 */
import { Style } from "@dicebear/core";

export const AVATAR_STYLES = [
  "adventurer-neutral",
  "adventurer",
  "avataaars-neutral",
  "avataaars",
  "big-ears-neutral",
  "big-ears",
  "big-smile",
  "blobs",
  "bottts-neutral",
  "bottts",
  "cameo",
  "clay",
  "constellation",
  "critters",
  "croodles-neutral",
  "croodles",
  "cutouts",
  "disco",
  "dylan",
  "fun-emoji",
  "gaze",
  "glass",
  "glyphs",
  "icons",
  "identicon",
  "initial-face",
  "initials",
  "landscape",
  "line-face",
  "loops",
  "lorelei-neutral",
  "lorelei",
  "marbles",
  "micah",
  "miniavs",
  "moods",
  "notionists-neutral",
  "notionists",
  "open-peeps",
  "patchwork",
  "personas",
  "pixel-art-neutral",
  "pixel-art",
  "pixelbot",
  "planets",
  "rings",
  "shadows",
  "shape-grid",
  "shapes",
  "slice",
  "sprouts",
  "squircles",
  "stack",
  "stripes",
  "thumbs",
  "toon-head",
  "triangles",
  "voxel-art",
  "voxel-bot",
  "waves",
  "weave",
] as const;

export type AvatarStyle = (typeof AVATAR_STYLES)[number];

export interface Credit {
  name: string;
  url: string;
}

/** What a style's definition says in its `meta` block; the tests compare the two. */
export interface AvatarStyleMeta {
  license: Credit;
  creator: Credit;
  /** The work DiceBear drew the style from (or the style itself, for DiceBear's own). */
  source: Credit;
}

/**
 * Licences reviewed for commercial use of generated images, and whether they ask for credit.
 * CC BY 4.0 allows commercial use with attribution; MIT asks for its notice with copies; CC0 and
 * Pablo Stanley's "free for personal and commercial use" ask nothing.
 */
export const REVIEWED_LICENSES = {
  "CC0 1.0": { commercial: true, attribution: false },
  "CC BY 4.0": { commercial: true, attribution: true },
  MIT: { commercial: true, attribution: true },
  "Free for personal and commercial use": { commercial: true, attribution: false },
  "Free for personal and commercial use.": { commercial: true, attribution: false },
} as const satisfies Record<string, { commercial: boolean; attribution: boolean }>;

export const AVATAR_STYLE_META: Record<AvatarStyle, AvatarStyleMeta> = {
  "adventurer-neutral": {
    license: { name: "CC BY 4.0", url: "https://creativecommons.org/licenses/by/4.0/" },
    creator: { name: "Lisa Wischofsky", url: "https://www.instagram.com/lischi_art/" },
    source: { name: "Adventurer Neutral", url: "https://www.figma.com/community/file/1184595184137881796" },
  },
  adventurer: {
    license: { name: "CC BY 4.0", url: "https://creativecommons.org/licenses/by/4.0/" },
    creator: { name: "Lisa Wischofsky", url: "https://www.instagram.com/lischi_art/" },
    source: { name: "Adventurer", url: "https://www.figma.com/community/file/1184595184137881796" },
  },
  "avataaars-neutral": {
    license: { name: "Free for personal and commercial use.", url: "https://avataaars.com/" },
    creator: { name: "Pablo Stanley", url: "https://twitter.com/pablostanley" },
    source: { name: "Avataaars", url: "https://avataaars.com/" },
  },
  avataaars: {
    license: { name: "Free for personal and commercial use", url: "https://avataaars.com/" },
    creator: { name: "Pablo Stanley", url: "https://twitter.com/pablostanley" },
    source: { name: "Avataaars", url: "https://avataaars.com/" },
  },
  "big-ears-neutral": {
    license: { name: "CC BY 4.0", url: "https://creativecommons.org/licenses/by/4.0/" },
    creator: { name: "The Visual Team", url: "https://thevisual.team/" },
    source: { name: "Face Generator", url: "https://www.figma.com/community/file/986078800058673824" },
  },
  "big-ears": {
    license: { name: "CC BY 4.0", url: "https://creativecommons.org/licenses/by/4.0/" },
    creator: { name: "The Visual Team", url: "https://thevisual.team/" },
    source: { name: "Face Generator", url: "https://www.figma.com/community/file/986078800058673824" },
  },
  "big-smile": {
    license: { name: "CC BY 4.0", url: "https://creativecommons.org/licenses/by/4.0/" },
    creator: { name: "Ashley Seo", url: "http://www.ashleyseo.com/" },
    source: { name: "Custom Avatar", url: "https://www.figma.com/community/file/881358461963645496" },
  },
  blobs: {
    license: { name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/" },
    creator: { name: "DiceBear", url: "https://www.dicebear.com" },
    source: { name: "Blobs", url: "https://www.dicebear.com" },
  },
  "bottts-neutral": {
    license: { name: "Free for personal and commercial use", url: "https://bottts.com/" },
    creator: { name: "Pablo Stanley", url: "https://twitter.com/pablostanley" },
    source: { name: "Bottts", url: "https://bottts.com/" },
  },
  bottts: {
    license: { name: "Free for personal and commercial use", url: "https://bottts.com/" },
    creator: { name: "Pablo Stanley", url: "https://twitter.com/pablostanley" },
    source: { name: "Bottts", url: "https://bottts.com/" },
  },
  cameo: {
    license: { name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/" },
    creator: { name: "DiceBear", url: "https://www.dicebear.com" },
    source: { name: "Cameo", url: "https://www.dicebear.com" },
  },
  clay: {
    license: { name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/" },
    creator: { name: "DiceBear", url: "https://www.dicebear.com" },
    source: { name: "Clay", url: "https://www.dicebear.com" },
  },
  constellation: {
    license: { name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/" },
    creator: { name: "DiceBear", url: "https://www.dicebear.com" },
    source: { name: "Constellation", url: "https://www.dicebear.com" },
  },
  critters: {
    license: { name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/" },
    creator: { name: "DiceBear", url: "https://www.dicebear.com" },
    source: { name: "Critters", url: "https://www.dicebear.com" },
  },
  "croodles-neutral": {
    license: { name: "CC BY 4.0", url: "https://creativecommons.org/licenses/by/4.0/" },
    creator: { name: "vijay verma", url: "https://vjy.me/" },
    source: { name: "Croodles - Doodle your face", url: "https://www.figma.com/community/file/966199982810283152" },
  },
  croodles: {
    license: { name: "CC BY 4.0", url: "https://creativecommons.org/licenses/by/4.0/" },
    creator: { name: "vijay verma", url: "https://vjy.me/" },
    source: { name: "Croodles - Doodle your face", url: "https://www.figma.com/community/file/966199982810283152" },
  },
  cutouts: {
    license: { name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/" },
    creator: { name: "DiceBear", url: "https://www.dicebear.com" },
    source: { name: "Cutouts", url: "https://www.dicebear.com" },
  },
  disco: {
    license: { name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/" },
    creator: { name: "DiceBear", url: "https://www.dicebear.com" },
    source: { name: "Disco", url: "https://www.dicebear.com" },
  },
  dylan: {
    license: { name: "CC BY 4.0", url: "https://creativecommons.org/licenses/by/4.0/" },
    creator: { name: "Natalia Spivak", url: "https://nataspvk.tilda.ws/" },
    source: { name: "Dylan! The Avatar Generator", url: "https://www.figma.com/community/file/1356575240759683500" },
  },
  "fun-emoji": {
    license: { name: "CC BY 4.0", url: "https://creativecommons.org/licenses/by/4.0/" },
    creator: { name: "Davis Uche", url: "https://www.instagram.com/davedirect3/" },
    source: { name: "Fun Emoji Set", url: "https://www.figma.com/community/file/968125295144990435" },
  },
  gaze: {
    license: { name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/" },
    creator: { name: "DiceBear", url: "https://www.dicebear.com" },
    source: { name: "Gaze", url: "https://www.dicebear.com" },
  },
  glass: {
    license: { name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/" },
    creator: { name: "DiceBear", url: "https://www.dicebear.com" },
    source: { name: "Glass", url: "https://www.dicebear.com" },
  },
  glyphs: {
    license: { name: "CC BY 4.0", url: "https://creativecommons.org/licenses/by/4.0/" },
    creator: { name: "Matt Houser", url: "https://x.com/mattkhouser" },
    source: {
      name: "Abstract Avatars for All Creative Profile Use",
      url: "https://www.figma.com/community/file/1249154526125777853",
    },
  },
  icons: {
    license: { name: "MIT", url: "https://github.com/twbs/icons/blob/main/LICENSE" },
    creator: { name: "The Bootstrap Authors", url: "https://getbootstrap.com/" },
    source: { name: "Bootstrap Icons", url: "https://github.com/twbs/icons" },
  },
  identicon: {
    license: { name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/" },
    creator: { name: "DiceBear", url: "https://www.dicebear.com" },
    source: { name: "Identicon", url: "https://www.dicebear.com" },
  },
  "initial-face": {
    license: { name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/" },
    creator: { name: "DiceBear", url: "https://www.dicebear.com" },
    source: { name: "Initial Face", url: "https://www.dicebear.com" },
  },
  initials: {
    license: { name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/" },
    creator: { name: "DiceBear", url: "https://www.dicebear.com" },
    source: { name: "Initials", url: "https://www.dicebear.com" },
  },
  landscape: {
    license: { name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/" },
    creator: { name: "DiceBear", url: "https://www.dicebear.com" },
    source: { name: "Landscape", url: "https://www.dicebear.com" },
  },
  "line-face": {
    license: { name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/" },
    creator: { name: "DiceBear", url: "https://www.dicebear.com" },
    source: { name: "Line Face", url: "https://www.dicebear.com" },
  },
  loops: {
    license: { name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/" },
    creator: { name: "DiceBear", url: "https://www.dicebear.com" },
    source: { name: "Loops", url: "https://www.dicebear.com" },
  },
  "lorelei-neutral": {
    license: { name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/" },
    creator: { name: "Lisa Wischofsky", url: "https://www.instagram.com/lischi_art/" },
    source: { name: "Lorelei Neutral", url: "https://www.figma.com/community/file/1198749693280469639" },
  },
  lorelei: {
    license: { name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/" },
    creator: { name: "Lisa Wischofsky", url: "https://www.instagram.com/lischi_art/" },
    source: { name: "Lorelei", url: "https://www.figma.com/community/file/1198749693280469639" },
  },
  marbles: {
    license: { name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/" },
    creator: { name: "DiceBear", url: "https://www.dicebear.com" },
    source: { name: "Marbles", url: "https://www.dicebear.com" },
  },
  micah: {
    license: { name: "CC BY 4.0", url: "https://creativecommons.org/licenses/by/4.0/" },
    creator: { name: "Micah Lanier", url: "https://dribbble.com/micahlanier" },
    source: { name: "Avatar Illustration System", url: "https://www.figma.com/community/file/829741575478342595" },
  },
  miniavs: {
    license: { name: "CC BY 4.0", url: "https://creativecommons.org/licenses/by/4.0/" },
    creator: { name: "Webpixels", url: "https://webpixels.io/" },
    source: { name: "Miniavs - Free Avatar Creator", url: "https://www.figma.com/community/file/923211396597067458" },
  },
  moods: {
    license: { name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/" },
    creator: { name: "DiceBear", url: "https://www.dicebear.com" },
    source: { name: "Moods", url: "https://www.dicebear.com" },
  },
  "notionists-neutral": {
    license: { name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/" },
    creator: { name: "Zoish", url: "https://bio.link/heyzoish" },
    source: { name: "Notionists", url: "https://heyzoish.gumroad.com/l/notionists" },
  },
  notionists: {
    license: { name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/" },
    creator: { name: "Zoish", url: "https://bio.link/heyzoish" },
    source: { name: "Notionists", url: "https://heyzoish.gumroad.com/l/notionists" },
  },
  "open-peeps": {
    license: { name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/" },
    creator: { name: "Pablo Stanley", url: "https://twitter.com/pablostanley" },
    source: { name: "Open Peeps", url: "https://www.openpeeps.com/" },
  },
  patchwork: {
    license: { name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/" },
    creator: { name: "DiceBear", url: "https://www.dicebear.com" },
    source: { name: "Patchwork", url: "https://www.dicebear.com" },
  },
  personas: {
    license: { name: "CC BY 4.0", url: "https://creativecommons.org/licenses/by/4.0/" },
    creator: { name: "Draftbit - draftbit.com", url: "https://draftbit.com/" },
    source: { name: "Personas by Draftbit", url: "https://personas.draftbit.com/" },
  },
  "pixel-art-neutral": {
    license: { name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/" },
    creator: { name: "DiceBear", url: "https://www.dicebear.com" },
    source: { name: "Pixel Art Neutral", url: "https://www.figma.com/community/file/1198754108850888330" },
  },
  "pixel-art": {
    license: { name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/" },
    creator: { name: "DiceBear", url: "https://www.dicebear.com" },
    source: { name: "Pixel Art", url: "https://www.figma.com/community/file/1198754108850888330" },
  },
  pixelbot: {
    license: { name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/" },
    creator: { name: "DiceBear", url: "https://www.dicebear.com" },
    source: { name: "Pixelbot", url: "https://www.dicebear.com" },
  },
  planets: {
    license: { name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/" },
    creator: { name: "DiceBear", url: "https://www.dicebear.com" },
    source: { name: "Planets", url: "https://www.dicebear.com" },
  },
  rings: {
    license: { name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/" },
    creator: { name: "DiceBear", url: "https://www.dicebear.com" },
    source: { name: "Rings", url: "https://www.dicebear.com" },
  },
  shadows: {
    license: { name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/" },
    creator: { name: "DiceBear", url: "https://www.dicebear.com" },
    source: { name: "Shadows", url: "https://www.dicebear.com" },
  },
  "shape-grid": {
    license: { name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/" },
    creator: { name: "DiceBear", url: "https://www.dicebear.com" },
    source: { name: "Shape Grid", url: "https://www.dicebear.com" },
  },
  shapes: {
    license: { name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/" },
    creator: { name: "DiceBear", url: "https://www.dicebear.com" },
    source: { name: "Shapes", url: "https://www.dicebear.com" },
  },
  slice: {
    license: { name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/" },
    creator: { name: "DiceBear", url: "https://www.dicebear.com" },
    source: { name: "Slice", url: "https://www.dicebear.com" },
  },
  sprouts: {
    license: { name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/" },
    creator: { name: "DiceBear", url: "https://www.dicebear.com" },
    source: { name: "Sprouts", url: "https://www.dicebear.com" },
  },
  squircles: {
    license: { name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/" },
    creator: { name: "DiceBear", url: "https://www.dicebear.com" },
    source: { name: "Squircles", url: "https://www.dicebear.com" },
  },
  stack: {
    license: { name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/" },
    creator: { name: "DiceBear", url: "https://www.dicebear.com" },
    source: { name: "Stack", url: "https://www.dicebear.com" },
  },
  stripes: {
    license: { name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/" },
    creator: { name: "DiceBear", url: "https://www.dicebear.com" },
    source: { name: "Stripes", url: "https://www.dicebear.com" },
  },
  thumbs: {
    license: { name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/" },
    creator: { name: "DiceBear", url: "https://www.dicebear.com" },
    source: { name: "Thumbs", url: "https://www.dicebear.com" },
  },
  "toon-head": {
    license: { name: "CC BY 4.0", url: "https://creativecommons.org/licenses/by/4.0/" },
    creator: { name: "Johan Melin", url: "https://www.johanmelin.com" },
    source: { name: "ToonHead", url: "https://www.figma.com/community/file/1589627891082866389" },
  },
  triangles: {
    license: { name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/" },
    creator: { name: "DiceBear", url: "https://www.dicebear.com" },
    source: { name: "Triangles", url: "https://www.dicebear.com" },
  },
  "voxel-art": {
    license: { name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/" },
    creator: { name: "DiceBear", url: "https://www.dicebear.com" },
    source: { name: "Voxel Art", url: "https://www.dicebear.com" },
  },
  "voxel-bot": {
    license: { name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/" },
    creator: { name: "DiceBear", url: "https://www.dicebear.com" },
    source: { name: "Voxel Bot", url: "https://www.dicebear.com" },
  },
  waves: {
    license: { name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/" },
    creator: { name: "DiceBear", url: "https://www.dicebear.com" },
    source: { name: "Waves", url: "https://www.dicebear.com" },
  },
  weave: {
    license: { name: "CC0 1.0", url: "https://creativecommons.org/publicdomain/zero/1.0/" },
    creator: { name: "DiceBear", url: "https://www.dicebear.com" },
    source: { name: "Weave", url: "https://www.dicebear.com" },
  },
};

/**
 * Styles whose filters make resvg slow: their PNG, JPEG and WebP are capped at this many pixels.
 * Measured with resvg-wasm, seed "ada", on the shared build machine: glass 260 ms at 256 px and
 * 3.2 s at 1024 px; marbles 269 ms and 2.4 s. Every other style renders 1024 px in at most 1.2 s.
 * SVG is not capped: the browser draws it.
 */
export const RASTER_SIZE_CAP: Partial<Record<AvatarStyle, number>> = { glass: 256, marbles: 256 };

// Typed as `unknown` on purpose: the definitions' literal JSON types would make TypeScript derive
// per-style option types we never use, at a real cost in type-checking time.
type Loader = () => Promise<{ default: unknown }>;

const LOADERS: Record<AvatarStyle, Loader> = {
  "adventurer-neutral": () => import("@dicebear/styles/adventurer-neutral.json"),
  adventurer: () => import("@dicebear/styles/adventurer.json"),
  "avataaars-neutral": () => import("@dicebear/styles/avataaars-neutral.json"),
  avataaars: () => import("@dicebear/styles/avataaars.json"),
  "big-ears-neutral": () => import("@dicebear/styles/big-ears-neutral.json"),
  "big-ears": () => import("@dicebear/styles/big-ears.json"),
  "big-smile": () => import("@dicebear/styles/big-smile.json"),
  blobs: () => import("@dicebear/styles/blobs.json"),
  "bottts-neutral": () => import("@dicebear/styles/bottts-neutral.json"),
  bottts: () => import("@dicebear/styles/bottts.json"),
  cameo: () => import("@dicebear/styles/cameo.json"),
  clay: () => import("@dicebear/styles/clay.json"),
  constellation: () => import("@dicebear/styles/constellation.json"),
  critters: () => import("@dicebear/styles/critters.json"),
  "croodles-neutral": () => import("@dicebear/styles/croodles-neutral.json"),
  croodles: () => import("@dicebear/styles/croodles.json"),
  cutouts: () => import("@dicebear/styles/cutouts.json"),
  disco: () => import("@dicebear/styles/disco.json"),
  dylan: () => import("@dicebear/styles/dylan.json"),
  "fun-emoji": () => import("@dicebear/styles/fun-emoji.json"),
  gaze: () => import("@dicebear/styles/gaze.json"),
  glass: () => import("@dicebear/styles/glass.json"),
  glyphs: () => import("@dicebear/styles/glyphs.json"),
  icons: () => import("@dicebear/styles/icons.json"),
  identicon: () => import("@dicebear/styles/identicon.json"),
  "initial-face": () => import("@dicebear/styles/initial-face.json"),
  initials: () => import("@dicebear/styles/initials.json"),
  landscape: () => import("@dicebear/styles/landscape.json"),
  "line-face": () => import("@dicebear/styles/line-face.json"),
  loops: () => import("@dicebear/styles/loops.json"),
  "lorelei-neutral": () => import("@dicebear/styles/lorelei-neutral.json"),
  lorelei: () => import("@dicebear/styles/lorelei.json"),
  marbles: () => import("@dicebear/styles/marbles.json"),
  micah: () => import("@dicebear/styles/micah.json"),
  miniavs: () => import("@dicebear/styles/miniavs.json"),
  moods: () => import("@dicebear/styles/moods.json"),
  "notionists-neutral": () => import("@dicebear/styles/notionists-neutral.json"),
  notionists: () => import("@dicebear/styles/notionists.json"),
  "open-peeps": () => import("@dicebear/styles/open-peeps.json"),
  patchwork: () => import("@dicebear/styles/patchwork.json"),
  personas: () => import("@dicebear/styles/personas.json"),
  "pixel-art-neutral": () => import("@dicebear/styles/pixel-art-neutral.json"),
  "pixel-art": () => import("@dicebear/styles/pixel-art.json"),
  pixelbot: () => import("@dicebear/styles/pixelbot.json"),
  planets: () => import("@dicebear/styles/planets.json"),
  rings: () => import("@dicebear/styles/rings.json"),
  shadows: () => import("@dicebear/styles/shadows.json"),
  "shape-grid": () => import("@dicebear/styles/shape-grid.json"),
  shapes: () => import("@dicebear/styles/shapes.json"),
  slice: () => import("@dicebear/styles/slice.json"),
  sprouts: () => import("@dicebear/styles/sprouts.json"),
  squircles: () => import("@dicebear/styles/squircles.json"),
  stack: () => import("@dicebear/styles/stack.json"),
  stripes: () => import("@dicebear/styles/stripes.json"),
  thumbs: () => import("@dicebear/styles/thumbs.json"),
  "toon-head": () => import("@dicebear/styles/toon-head.json"),
  triangles: () => import("@dicebear/styles/triangles.json"),
  "voxel-art": () => import("@dicebear/styles/voxel-art.json"),
  "voxel-bot": () => import("@dicebear/styles/voxel-bot.json"),
  waves: () => import("@dicebear/styles/waves.json"),
  weave: () => import("@dicebear/styles/weave.json"),
};

const styles = new Map<AvatarStyle, Promise<Style>>();

/** A validated `Style`, built once per isolate: its constructor runs a JSON Schema validation. */
export function loadAvatarStyle(name: AvatarStyle): Promise<Style> {
  let style = styles.get(name);
  if (!style) {
    style = LOADERS[name]().then((module) => new Style(module.default));
    // A failed load must not stay cached for the isolate's life.
    style.catch(() => styles.delete(name));
    styles.set(name, style);
  }
  return style;
}

/** The credit line for a style, ASCII only so it can travel in an HTTP header. */
export function attributionText(name: AvatarStyle): string {
  const { license, creator, source } = AVATAR_STYLE_META[name];
  return `"${source.name}" (${source.url}) by ${creator.name} (${creator.url}), licensed under ${license.name} (${license.url}); avatar style "${name}" from DiceBear (https://www.dicebear.com)`;
}

/**
 * The credit every answer carries: a `Link` to the licence with the registered `license`
 * relation (RFC 4946 via RFC 8288), and the credit line itself. Sent with SVG too, though the
 * SVG also holds it as metadata, so a client can read it the same way whatever the format.
 */
export function attributionHeaders(name: AvatarStyle): Record<string, string> {
  const { license } = AVATAR_STYLE_META[name];
  return { link: `<${license.url}>; rel="license"`, "x-avatar-attribution": attributionText(name) };
}
