/**
 * Avatars: DiceBear styles drawn as SVG, or rendered to PNG with resvg. One call in two shapes:
 * `POST` with a JSON body, and `GET` with the same fields in the query string so an avatar URL
 * can sit directly in an `<img src>`.
 */
import { defineOperation, type HostedApiDefinition } from "../definition";
import { handleAvatar } from "./handler";
import { AVATAR_SIZE, AvatarJsonInputSchema, AvatarQueryInputSchema } from "./schema";
import { AVATAR_STYLE_LICENSES, AVATAR_STYLES } from "./styles";

const STYLE_LIST = AVATAR_STYLES.map((style) => `\`${style}\` (${AVATAR_STYLE_LICENSES[style]})`).join(", ");

const DESCRIPTION = [
  `Draws a deterministic avatar: the same seed and options always give the same bytes, and different seeds give different images.`,
  `Styles, with their licences: ${STYLE_LIST}.`,
  `\`size\` is ${AVATAR_SIZE.min}–${AVATAR_SIZE.max} px (default ${AVATAR_SIZE.default}); \`backgroundColor\` is a hex colour or "transparent" (absent: the style's own palette);`,
  `\`radius\` rounds the corners in percent (50 makes a circle); \`flip\` mirrors horizontally; \`rotate\` turns by 0–360 degrees.`,
  `\`format\` "svg" (default) answers image/svg+xml; "png" answers image/png rendered with resvg (text in the initials style uses the bundled Open Sans font).`,
].join(" ");

const OUTPUT = {
  kind: "binary" as const,
  mimeTypes: ["image/svg+xml", "image/png"],
  description: "The avatar: SVG markup (format svg) or PNG bytes (format png), size × size pixels.",
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
        style: "shapes",
        size: 128,
        backgroundColor: "#e0f2fe",
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
      description: `${DESCRIPTION} The same fields as the POST call, as query parameters (\`flip=true\`; write \`#\` in a colour as %23, or leave it out).`,
      inputSource: "query",
      input: AvatarQueryInputSchema,
      output: OUTPUT,
      example: { seed: "ada@example.com", style: "initials", size: "96", format: "png" },
      handler: (input, ctx) => handleAvatar(input, ctx),
    }),
  ],
};
