/**
 * Avatars: DiceBear styles drawn as SVG, or rendered to PNG with resvg. One call in two shapes:
 * `POST` with a JSON body, and `GET` with the same fields in the query string so an avatar URL
 * can sit directly in an `<img src>`.
 */
import { defineOperation, type HostedApiDefinition } from "../definition";
import { handleAvatar } from "./handler";
import { AVATAR_SIZE, AvatarJsonInputSchema, AvatarQueryInputSchema } from "./schema";
import { AVATAR_STYLE_META, AVATAR_STYLES, RASTER_SIZE_CAP } from "./styles";

/**
 * Each style with its credit, as Markdown links (OpenAPI descriptions are CommonMark). The same
 * credit rides on every answer (`Link` and `X-Avatar-Attribution` headers; SVG metadata).
 */
const STYLE_CREDITS = AVATAR_STYLES.map((style) => {
  const { license, creator, source } = AVATAR_STYLE_META[style];
  return `\`${style}\`: [${source.name}](${source.url}) by [${creator.name}](${creator.url}), [${license.name}](${license.url})`;
}).join("; ");

const CAPPED = Object.entries(RASTER_SIZE_CAP)
  .map(([style, cap]) => `\`${style}\` up to ${cap} px`)
  .join(", ");

const DESCRIPTION = [
  `Draws a deterministic avatar: the same seed and options always give the same bytes, and different seeds give different images.`,
  `Every DiceBear style whose licence allows commercial use is offered (${AVATAR_STYLES.length}); CC BY 4.0 and MIT ask for credit, so every answer carries it: a \`Link: <licence>; rel="license"\` header, an \`X-Avatar-Attribution\` header naming the work, its creator and licence, and in SVG the same as RDF metadata. Show that credit where you show the avatar when the licence asks for it.`,
  `\`size\` is ${AVATAR_SIZE.min}–${AVATAR_SIZE.max} px (default ${AVATAR_SIZE.default}); raster formats of the filter-heavy styles are capped (${CAPPED}). \`backgroundColor\` is a hex colour or "transparent" (absent: the style's own palette);`,
  `\`radius\` rounds the corners in percent (50 makes a circle); \`flip\` mirrors horizontally; \`rotate\` turns by 0–360 degrees.`,
  `The other options are DiceBear HTTP API's (9.x), with its names and ranges, so a DiceBear URL's query is accepted here as it is, though the pictures are drawn by DiceBear 10 and can differ from api.dicebear.com's: \`scale\` 0–200 percent (e.g. 80 leaves a margin), \`translateX\`/\`translateY\` -100–100 percent of the size, \`clip\` (default true; false drops the canvas clip when there is no radius), \`backgroundColor\` as a list the seed picks from (\`b6e3f4,c0aede\` in a URL), \`backgroundType\` solid or gradientLinear (a gradient between two of the background colours), \`backgroundRotation\` -360–360 degrees, one angle or a range of two (default 0,360). Out-of-range values answer 422 naming the field.`,
  `\`format\` "svg" (default) answers image/svg+xml; "png" answers image/png rendered with resvg (text in the initials style uses the bundled Open Sans font); "jpeg" (or "jpg") and "webp" are re-encoded from that PNG at \`quality\` 1–100 (default 85): WebP is lossy and keeps transparency, JPEG lays clear areas on white. AVIF is not offered (no encoder runs in the Worker) and answers 422.`,
  `Styles, their sources, creators and licences: ${STYLE_CREDITS}.`,
].join(" ");

const OUTPUT = {
  kind: "binary" as const,
  mimeTypes: ["image/svg+xml", "image/png", "image/jpeg", "image/webp"],
  description:
    "The avatar, size × size pixels: SVG markup (format svg), or PNG, JPEG or lossy WebP bytes (png, jpeg, webp). Link (rel=license) and X-Avatar-Attribution headers credit the style.",
};

export const definition: HostedApiDefinition = {
  slug: "avatar",
  operations: [
    defineOperation({
      id: "createAvatar",
      method: "POST",
      path: "",
      summary: "Create an avatar from a seed",
      description: DESCRIPTION,
      inputSource: "json",
      input: AvatarJsonInputSchema,
      output: OUTPUT,
      example: {
        seed: "ada@example.com",
        style: "adventurer",
        size: 128,
        backgroundColor: ["#b6e3f4", "#c0aede"],
        backgroundType: "gradientLinear",
        backgroundRotation: 45,
        scale: 90,
        translateY: 5,
        radius: 50,
        format: "svg",
      },
      maxBodyBytes: 4 * 1024,
      handler: (input, ctx) => handleAvatar(input, ctx),
    }),
    defineOperation({
      id: "getAvatar",
      method: "GET",
      path: "",
      summary: "Get an avatar by URL",
      description: `The POST call's fields as query parameters (\`flip=true\`; write \`#\` in a colour as %23, or leave it out), answering the same bytes and credit headers; styles, options and licences are described under "Create an avatar from a seed".`,
      inputSource: "query",
      input: AvatarQueryInputSchema,
      output: OUTPUT,
      example: {
        seed: "ada@example.com",
        style: "initials",
        size: "96",
        backgroundColor: "b6e3f4,c0aede",
        backgroundType: "gradientLinear",
        backgroundRotation: "0,90",
        scale: "80",
        format: "webp",
        quality: "80",
      },
      handler: (input, ctx) => handleAvatar(input, ctx),
    }),
  ],
};
