/**
 * The live demo's multipart fields when the visitor chooses a file. The example input carries
 * its own copy of the file, often as a data URL (Remove Background's `image_file_b64`, Image to
 * Text's `image`), so a call sent with the visitor's file beside it would carry two images, and
 * an API that takes exactly one refuses it. The chosen file replaces the example's value of its
 * own field and any data URL in a field that takes no file; everything else is sent as typed.
 */
const DATA_URL = /^data:[^,]*;base64,/i;

export function fieldsBesideFiles(
  input: Record<string, unknown>,
  chosen: readonly string[],
  fileFields: readonly string[],
): Record<string, unknown> {
  if (chosen.length === 0) return input;
  return Object.fromEntries(
    Object.entries(input).filter(([name, value]) => {
      if (chosen.includes(name)) return false;
      return !(typeof value === "string" && DATA_URL.test(value) && !fileFields.includes(name));
    }),
  );
}
