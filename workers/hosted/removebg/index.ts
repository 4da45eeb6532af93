/**
 * Remove Background: the subject cut out of an image, on transparency or a colour, under
 * remove.bg's parameter names (decision 062). Cloudflare Images' segmentation in production,
 * the engine Worker's classic engine where Images is not bound.
 */
import { CUTOUT_MAX_PIXELS } from "~workers/hosted/capabilities";
import { defineOperation, type HostedApiDefinition } from "~workers/hosted/definition";
import {
  MAX_BACKDROP_GRADIENT,
  MAX_BACKDROP_NOISE,
  MAX_BORDER_SUBJECT,
  MIN_BORDER_COVERAGE,
} from "~workers/engines/cutout/limits";
import { SINGLE_IMAGE_BODY_BYTES } from "../_image/limits";
import { EXAMPLE_PNG } from "./example";
import { removeBackground } from "./handler";
import { IMAGES_MAX_INPUT_PIXELS, IMAGES_MAX_INPUT_SIDE } from "../_image/cutout-input";
import { RemoveBgInputSchema } from "./schema";

const MP = (pixels: number) => `${pixels / 1_000_000}`;

const DESCRIPTION = [
  "Cuts the subject out of an image and answers it on transparency or on a colour, with remove.bg's parameter names and key header (`x-api-key`), in multipart or JSON — not form-encoded: remove.bg also takes `application/x-www-form-urlencoded` (Python's `requests.post(…, data={…})` without a file sends it), which is answered 400 `malformed-body` here, so such a client must send JSON or multipart. The answer is the image's bytes whatever `Accept` says (remove.bg's JSON answer to `Accept: application/json` is not given; `?as=json` answers our own shape, below). Send one image: `image_file` (a multipart file), `image_url` (fetched by us, public addresses only) or `image_file_b64` (base64, plain or as a data URL); PNG, JPEG or WebP up to 10 MB, the type read from the bytes.",
  `The answer is the image itself (\`image/png\`, \`image/webp\` or \`image/jpeg\`) with remove.bg's headers: \`X-Width\` and \`X-Height\` (the answer's size), \`X-Foreground-Top\`, \`X-Foreground-Left\`, \`X-Foreground-Width\` and \`X-Foreground-Height\` (the subject's box in the answer), and \`X-Engine\`. \`?as=json\` answers \`{ data, mimeType, size }\` with the image in base64, the headers unchanged. remove.bg's \`X-Type\` (person, product, car) is not sent: neither engine classifies the subject. \`size\`: \`preview\` up to ${MP(CUTOUT_MAX_PIXELS.preview)} megapixels, \`medium\` ${MP(CUTOUT_MAX_PIXELS.medium)}, \`full\`/\`auto\` (the default) the image's own size up to ${MP(CUTOUT_MAX_PIXELS.full)} megapixels, larger images scaled down (remove.bg's full goes to 25). \`crop\` cuts the answer to the subject's box; \`channels: alpha\` answers the mask alone (white subject on black); \`bg_color\` fills the background (\`81d4fa\`, \`fff\`, \`81d4fa77\` with alpha, or a CSS name); \`format\`: \`png\`, \`webp\` (lossy, keeps transparency) or \`jpg\` (needs \`bg_color\`), \`auto\` picking \`jpg\` on an opaque colour and \`png\` otherwise.`,
  `Engines — production: Cloudflare Images' foreground segmentation (\`segment: "foreground"\`, a BiRefNet model run by Cloudflare), \`X-Engine: cloudflare-images\`: people, products, animals, cars and other subjects on any background, hair and fine edges included, images up to ${MP(IMAGES_MAX_INPUT_PIXELS)} megapixels and ${IMAGES_MAX_INPUT_SIDE} pixels a side. Local (development, and any deployment without the IMAGES binding): the classic engine, \`X-Engine: classic\`, which runs in the engine Worker without a model and does what it can honestly do: a subject on a plain or gently shaded background (a studio backdrop, a product on white, a logo on a flat colour) that shows all round the image's border. It models the background's colour from the border (a flat colour or a linear gradient, in CIELAB), grows the background inward from the border within a tolerance set by the background's own noise, and feathers the edge over 1–2 pixels. What differs: the classic engine refuses, with 422 \`invalid-input\` and \`reason: border-too-varied\`, an image whose border is not one backdrop (a photograph's scene, a texture, a noise spread over ΔE ${MAX_BACKDROP_NOISE}, a change over ΔE ${MAX_BACKDROP_GRADIENT} from side to side, two colours) or whose border is less than ${Math.round(MIN_BORDER_COVERAGE * 100)} % backdrop (a subject that fills the frame), and an image with a second background colour that runs from one side of the border to the opposite one or covers over ${Math.round(MAX_BORDER_SUBJECT * 100)} % of it (a wall over a floor or table, a strip of another colour down one side; \`borderSides\` names the sides), rather than answer a bad cut; a subject reaching two opposite sides is refused the same way, since the engine cannot tell it from a table. Background-coloured areas the subject encloses (the inside of a ring, between a mug and its handle) stay in the cut unless a gap joins them to the outside, and a subject the colour of its background is not separated from it. It decodes PNG up to 9 megapixels, a colour JPEG up to about 4 and WebP up to 3, reads transparent pixels as white, and reads a JPEG's pixels as stored, without turning them by its EXIF orientation: a phone photo stored on its side is cut and answered on its side (rotate it first; whether Cloudflare Images applies the orientation has not been checked here).`,
  "Not supported, and refused at their field: remove.bg's `bg_image_url`, `bg_image_file`, `roi`, `scale`, `position`, `crop_margin` and `add_shadow`. `type`, `type_level` and `semitransparency` are accepted and change nothing. Errors are RFC 9457 problems, not remove.bg's `errors` array; remove.bg's `unknown_foreground` is our 422 `reason: no-foreground`.",
  "Failures: 415 `unsupported-media-type` for a file that is not a PNG, JPEG or WebP; 422 `unreadable-document` for a damaged image or one over the engine's size limits, judged from its header before anything is decoded (`reason: too-large`); 422 `invalid-input` for a bad field (`errors` names it: `format: jpg` without `bg_color`, two images or none, an image over 10 MB, a URL the guard refuses), and for an image the engine refuses (`reason: border-too-varied` or `no-foreground`); 503 `engine-unavailable` when this deployment has no engine (`binding: IMAGES`), or its Images allowance for the month is used up; 502 `engine-failed` when the engine stops or passes its 20 s limit.",
].join(" ");

export const definition: HostedApiDefinition = {
  slug: "removebg",
  operations: [
    defineOperation({
      id: "removeBackground",
      method: "POST",
      path: "",
      summary: "Cut the subject out of an image, on transparency or a colour",
      description: DESCRIPTION,
      inputSource: "json-or-multipart",
      input: RemoveBgInputSchema,
      output: {
        kind: "binary",
        mimeTypes: ["image/png", "image/webp", "image/jpeg"],
        description:
          "The cut-out; `X-Width` and `X-Height` give its size, `X-Foreground-*` the subject's box, `X-Engine` the engine",
      },
      example: { image_file_b64: EXAMPLE_PNG, size: "full", format: "png" },
      maxBodyBytes: SINGLE_IMAGE_BODY_BYTES,
      errors: [
        { type: "unsupported-media-type", when: "the file is not a PNG, JPEG or WebP" },
        {
          type: "unreadable-document",
          when: "the image is damaged, or over the engine's size limits, judged from its header (`reason: too-large`)",
        },
        {
          type: "invalid-input",
          when: "a field is invalid (`errors`), or the engine refuses the image: its border is too varied for the classic engine (`reason: border-too-varied`), or nothing stands out from the background (`reason: no-foreground`)",
        },
        {
          type: "engine-unavailable",
          when: "this deployment has neither Cloudflare Images (`binding: IMAGES`) nor the engine Worker, or its Images allowance for the month is used up",
        },
        { type: "engine-failed", when: "the engine stopped on the image or passed its 20 s limit" },
      ],
      handler: removeBackground,
    }),
  ],
};
