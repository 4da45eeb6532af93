/**
 * `POST /api/v1/qrcode/signed-url`: a URL for the GET form that works without a key header,
 * for an `<img src>` (decision 043). The options are validated now, with the GET form's own
 * schema, so a URL is never signed for a call that could only be refused; every option is
 * written into the URL, defaults included, so the image it shows cannot change if a default
 * changes later.
 */
import { json, type HandlerResult, type OperationContext } from "../definition";
import type { QrSignedUrlInput } from "./schema";

/** The path the signed URL calls: the GET form of createQrCode. */
export const QR_GET_PATH = "/api/v1/qrcode";

export async function handleQrSignedUrl(input: QrSignedUrlInput, ctx: OperationContext): Promise<HandlerResult> {
  const { expiresIn, ...options } = input;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(options)) if (value !== undefined) params.set(name, String(value));
  const { url, expiresAt } = await ctx.signUrl({ path: QR_GET_PATH, params, expiresInSeconds: expiresIn });
  return json({ url, expiresAt: new Date(expiresAt * 1000).toISOString() });
}
