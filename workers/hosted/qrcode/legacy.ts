/**
 * The spec-era `POST /api/qrcode` body, shaped after qr-code-styling's options:
 *
 *   { text, width, height, qrOptions: { errorCorrectionLevel }, imageOptions: { margin },
 *     dotsOptions: { color, type }, backgroundOptions: { color }, image | logo }
 *
 * mapped onto `createQrCode`'s input. Values pass through unchanged where the meaning is the
 * same, so the operation's schema refuses bad ones with the same messages as on the new path;
 * nothing is clamped or guessed silently.
 */

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function member(value: unknown, key: string): unknown {
  return isRecord(value) ? value[key] : undefined;
}

/**
 * qr-code-styling's dot types onto ours, by look: "extra-rounded" and "classy-rounded" are
 * rounder variants of "rounded"; "classy" rounds only two opposite corners of a module and
 * otherwise keeps its square outline, so "square" is its nearest. Unknown types pass through
 * and the schema refuses them.
 */
const DOT_TYPES: Record<string, "square" | "dots" | "rounded"> = {
  square: "square",
  dots: "dots",
  rounded: "rounded",
  "extra-rounded": "rounded",
  classy: "square",
  "classy-rounded": "rounded",
};

export function adaptLegacyQrCode(raw: Record<string, unknown>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  const set = (key: string, value: unknown) => {
    if (value !== undefined) input[key] = value;
  };

  // qr-code-styling calls the content `data`; the spec-era API called it `text`.
  set("text", raw.text ?? raw.data);
  // The code is square: `width` wins, `height` stands in when it is the only one given.
  set("size", raw.width ?? raw.height);
  set("errorCorrection", member(raw.qrOptions, "errorCorrectionLevel"));
  set("foreground", member(raw.dotsOptions, "color"));
  set("background", member(raw.backgroundOptions, "color"));
  const dotType = member(raw.dotsOptions, "type");
  set("dotStyle", typeof dotType === "string" ? (DOT_TYPES[dotType] ?? dotType) : dotType);
  set("logo", raw.image ?? raw.logo);
  // In qr-code-styling `imageOptions.margin` is the space around the logo in pixels, not the quiet
  // zone, so it maps to `logoMargin` (also pixels), not to `margin` (modules). Its top-level
  // `margin` (quiet zone in pixels) is not part of the old shape; our default of 4 modules applies.
  set("logoMargin", member(raw.imageOptions, "margin"));
  set("format", raw.format);
  return input;
}
