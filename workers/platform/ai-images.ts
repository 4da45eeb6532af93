/**
 * AI prompt-to-image (docs/product.md#ai-image-plans, decision 063): the admin's page, limited
 * per plan by day and by month, its images kept in R2 with their prompt and style.
 *
 * The engine is Workers AI (FLUX.1 schnell). The `AI` binding exists in production only: it has
 * no local simulation, and a top-level one stops `npm run dev` from starting without an account.
 * Where it is missing the call answers that the engine is unavailable, naming the binding,
 * instead of inventing a picture; the page says so before anyone clicks.
 */
import { z } from "zod";
import type { WorkersAiBinding } from "~workers/providers/workers-ai/binding";
import { MODEL_TIMEOUT_MS } from "~workers/providers/workers-ai/text-to-image";
import { hexOf } from "./ids";
import { currentPlanPeriod, type PlanId, type StoredPlan } from "./plans";

export const AI_IMAGE_LIMITS: Record<PlanId, { perMonth: number; perDay: number }> = {
  free: { perMonth: 30, perDay: 1 },
  standard: { perMonth: 90, perDay: 3 },
  premium: { perMonth: 150, perDay: 5 },
};

/**
 * The two buttons, as prompt presets appended to the admin's words. FLUX.1 schnell takes only
 * `prompt` and `steps` (no negative prompt): the style is asked for, not the faults forbidden.
 */
export const AI_IMAGE_STYLES = {
  anime: { label: "Anime", preset: "anime illustration, cel shading, clean line art, vibrant colours" },
  human: {
    label: "AI Human",
    preset:
      "photorealistic photograph of a real person, natural skin texture, soft natural light, 50mm lens, sharp focus",
  },
} as const;
export type AiImageStyle = keyof typeof AI_IMAGE_STYLES;

/**
 * The admin's words: with ". " and the longest preset this stays within FLUX's 2048 characters
 * (ai-images.test.ts checks it), so the prompt is never cut on its way to the model.
 */
export const PROMPT_MAX_CHARS = 1000;

export const PromptToImageSchema = z.object({
  input_prompts: z
    .string({ error: "Describe the picture" })
    .trim()
    .min(3, "Describe the picture in a few words")
    .max(PROMPT_MAX_CHARS, `Keep the description under ${PROMPT_MAX_CHARS} characters`),
  type: z.enum(["anime", "human"], { error: "type is 'anime' or 'human'" }),
});
export type PromptToImageInput = z.infer<typeof PromptToImageSchema>;

// ---------------------------------------------------------------------------------------------
// The allowance

const DAY_MS = 24 * 60 * 60 * 1000;

/** The windows a generation at `now` counts in: the UTC day, and the plan's month. */
function windowsAt(plan: StoredPlan, now: number) {
  const dayStart = now - (now % DAY_MS);
  // A paid plan's months are counted back from its expiry, as its API quota's are; Free's is
  // the calendar month (UTC). An expired plan is Free again.
  const period = currentPlanPeriod(plan, now);
  const limits = AI_IMAGE_LIMITS[period.planId];
  return {
    limits,
    day: { start: dayStart, end: dayStart + DAY_MS },
    month: { start: period.start, end: period.resetsAt },
  };
}

export type AiImageAllowance = { ok: true; id: string } | { ok: false; retryAfterSeconds: number; limit: string };

/**
 * An image's name: newest sorts first in an R2 listing (the time is inverted), and two made in
 * the same millisecond still differ.
 */
function newImageId(now: number): string {
  return `${String(9_999_999_999_999 - now).padStart(13, "0")}-${hexOf(crypto.getRandomValues(new Uint8Array(8)))}`;
}

export const AI_IMAGE_ID = /^\d{13}-[0-9a-f]{16}$/;

/**
 * Reserves one generation for `userId` against the day and the month of the plan in force, or
 * says which limit stops it and for how long. One INSERT … SELECT counts both windows and writes
 * the row: D1 runs statements one at a time, so of calls arriving together exactly as many as
 * the limits leave room for get a row. Reserve before calling the model; give the reservation
 * back (`releaseAiImageAllowance`) when no image came of it.
 */
export async function takeAiImageAllowance(
  db: D1Database,
  userId: string,
  plan: StoredPlan,
  now: number = Date.now(),
): Promise<AiImageAllowance> {
  const { limits, day, month } = windowsAt(plan, now);
  const id = newImageId(now);
  const taken = await db
    .prepare(
      `INSERT INTO ai_image_generations (id, user_id, created_at)
       SELECT ?1, ?2, ?3
       WHERE (SELECT COUNT(*) FROM ai_image_generations
              WHERE user_id = ?2 AND created_at >= ?4 AND created_at < ?5) < ?6
         AND (SELECT COUNT(*) FROM ai_image_generations
              WHERE user_id = ?2 AND created_at >= ?7 AND created_at < ?8) < ?9`,
    )
    .bind(id, userId, now, day.start, day.end, limits.perDay, month.start, month.end, limits.perMonth)
    .run();
  if (taken.meta.changes === 1) return { ok: true, id };
  const usage = await countsIn(db, userId, day, month);
  // The month outlasts the day: when both are spent, the month is the one to wait for.
  if (usage.month >= limits.perMonth) {
    return { ok: false, retryAfterSeconds: secondsUntil(month.end, now), limit: `${limits.perMonth} a month` };
  }
  return { ok: false, retryAfterSeconds: secondsUntil(day.end, now), limit: `${limits.perDay} a day` };
}

/** Gives back a reservation whose call produced no image. */
export async function releaseAiImageAllowance(db: D1Database, id: string): Promise<void> {
  await db.prepare(`DELETE FROM ai_image_generations WHERE id = ?`).bind(id).run();
}

export interface AiImageUsage {
  planId: PlanId;
  today: number;
  thisMonth: number;
  perDay: number;
  perMonth: number;
}

/** Where the account stands today and this month, for the page. */
export async function aiImageUsage(
  db: D1Database,
  userId: string,
  plan: StoredPlan,
  now: number = Date.now(),
): Promise<AiImageUsage> {
  const { limits, day, month } = windowsAt(plan, now);
  const usage = await countsIn(db, userId, day, month);
  return { planId: currentPlanPeriod(plan, now).planId, today: usage.day, thisMonth: usage.month, ...limits };
}

type Window = { start: number; end: number };

async function countsIn(db: D1Database, userId: string, day: Window, month: Window) {
  const row = await db
    .prepare(
      `SELECT
         (SELECT COUNT(*) FROM ai_image_generations WHERE user_id = ?1 AND created_at >= ?2 AND created_at < ?3) AS day,
         (SELECT COUNT(*) FROM ai_image_generations WHERE user_id = ?1 AND created_at >= ?4 AND created_at < ?5) AS month`,
    )
    .bind(userId, day.start, day.end, month.start, month.end)
    .first<{ day: number; month: number }>();
  return { day: row?.day ?? 0, month: row?.month ?? 0 };
}

function secondsUntil(end: number, now: number): number {
  return Math.max(1, Math.ceil((end - now) / 1000));
}

// ---------------------------------------------------------------------------------------------
// The engine

/**
 * What prompt-to-image needs from the environment: the model exists in production only, the
 * bucket everywhere (Miniflare simulates R2). `AI_IMAGE_TIMEOUT_MS` shortens the model's time
 * limit (tests do; it is never longer than the 25 s the page's own 30 s leave room for).
 */
export interface AiImageBindings {
  AI?: WorkersAiBinding;
  AI_IMAGES?: R2Bucket;
  AI_IMAGE_TIMEOUT_MS?: string;
}

export type AiImageEngine =
  | { available: true; ai: WorkersAiBinding; bucket: R2Bucket; timeoutMs: number }
  | { available: false; binding: "AI" | "AI_IMAGES"; message: string };

function timeoutOf(env: AiImageBindings): number {
  const asked = Number(env.AI_IMAGE_TIMEOUT_MS);
  return Number.isInteger(asked) && asked > 0 ? Math.min(asked, MODEL_TIMEOUT_MS) : MODEL_TIMEOUT_MS;
}

/**
 * The engine this environment has, or the sentence saying which binding it lacks. The page's
 * loader and the API both ask here, so the page shows the server's own words before any click.
 */
export function aiImageEngineFor(env: AiImageBindings): AiImageEngine {
  if (!env.AI) {
    return {
      available: false,
      binding: "AI",
      message:
        "Image generation needs the Workers AI binding (AI), which this environment does not have: it is declared for production only.",
    };
  }
  if (!env.AI_IMAGES) {
    return {
      available: false,
      binding: "AI_IMAGES",
      message:
        "Image generation needs the R2 bucket binding AI_IMAGES to keep the images, which this environment does not have.",
    };
  }
  return { available: true, ai: env.AI, bucket: env.AI_IMAGES, timeoutMs: timeoutOf(env) };
}

/** The prompt the model is given: the admin's words, then the style's preset. */
export function modelPrompt(input: PromptToImageInput): string {
  return `${input.input_prompts}. ${AI_IMAGE_STYLES[input.type].preset}`;
}

// ---------------------------------------------------------------------------------------------
// The store: R2, one object per image under the account's prefix, its prompt and style beside it

export interface StoredAiImage {
  id: string;
  prompt: string;
  style: AiImageStyle;
  createdAt: number;
  contentType: string;
  size: number;
}

const prefixOf = (userId: string) => `users/${userId}/`;

export async function storeAiImage(
  bucket: R2Bucket,
  userId: string,
  id: string,
  image: { bytes: Uint8Array; mimeType: string; model: string },
  input: PromptToImageInput,
  createdAt: number,
): Promise<StoredAiImage> {
  await bucket.put(`${prefixOf(userId)}${id}`, image.bytes, {
    httpMetadata: { contentType: image.mimeType },
    customMetadata: {
      prompt: input.input_prompts,
      style: input.type,
      model: image.model,
      createdAt: String(createdAt),
    },
  });
  return {
    id,
    prompt: input.input_prompts,
    style: input.type,
    createdAt,
    contentType: image.mimeType,
    size: image.bytes.length,
  };
}

function describe(object: R2Object, id: string): StoredAiImage {
  const meta = object.customMetadata ?? {};
  const style: AiImageStyle = meta.style === "human" ? "human" : "anime";
  const createdAt = Number(meta.createdAt);
  return {
    id,
    prompt: meta.prompt ?? "",
    style,
    createdAt: Number.isFinite(createdAt) ? createdAt : object.uploaded.getTime(),
    contentType: object.httpMetadata?.contentType ?? "application/octet-stream",
    size: object.size,
  };
}

export const AI_IMAGE_PAGE_SIZE = 24;

/**
 * The account's images, newest first (their names sort that way), a page at a time: `after`
 * is the last image already shown, and `next` the one to pass for the page after this (null at
 * the end). Paging by name, not by R2's cursor, lets the page continue from what it shows even
 * after a new image moved every page by one.
 */
export async function listAiImages(
  bucket: R2Bucket,
  userId: string,
  options: { after?: string; limit?: number } = {},
): Promise<{ images: StoredAiImage[]; next: string | null }> {
  const prefix = prefixOf(userId);
  if (options.after !== undefined && !AI_IMAGE_ID.test(options.after)) {
    throw new Error("listAiImages: `after` is not an image id");
  }
  const listed = await bucket.list({
    prefix,
    ...(options.after !== undefined && { startAfter: `${prefix}${options.after}` }),
    limit: options.limit ?? AI_IMAGE_PAGE_SIZE,
    include: ["httpMetadata", "customMetadata"],
  });
  const images = listed.objects.map((object) => describe(object, object.key.slice(prefix.length)));
  return { images, next: listed.truncated ? (images.at(-1)?.id ?? null) : null };
}

/** An image, its ETag, and its bytes: null when the browser's copy (`If-None-Match`) is current. */
export interface ReadAiImage {
  image: StoredAiImage;
  etag: string;
  body: ReadableStream | null;
}

/**
 * One of the account's images with its bytes, or null when it has none by that name. With the
 * request's headers as `conditions`, an `If-None-Match` naming the current ETag gets no body.
 */
export async function readAiImage(
  bucket: R2Bucket,
  userId: string,
  id: string,
  conditions?: Headers,
): Promise<ReadAiImage | null> {
  if (!AI_IMAGE_ID.test(id)) return null;
  const object: R2ObjectBody | R2Object | null = await bucket.get(`${prefixOf(userId)}${id}`, {
    onlyIf: conditions ?? new Headers(),
  });
  if (!object) return null;
  const image = describe(object, id);
  const body = "body" in object ? (object as R2ObjectBody).body : null;
  return { image, etag: object.httpEtag, body };
}

/** Deletes every image of the account (its account is going), a listing page at a time. */
export async function deleteAiImages(bucket: R2Bucket, userId: string): Promise<void> {
  let cursor: string | undefined;
  do {
    const listed = await bucket.list({ prefix: prefixOf(userId), limit: 1000, cursor });
    if (listed.objects.length > 0) await bucket.delete(listed.objects.map((object) => object.key));
    cursor = listed.truncated ? listed.cursor : undefined;
  } while (cursor);
}

const EXTENSIONS: Record<string, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
  "image/gif": "gif",
  "image/bmp": "bmp",
};

/** `portico-anime-2026-11-24-a-lighthouse-at-dusk.jpg`: the style, the day and the prompt's first words. */
export function aiImageFilename(image: Pick<StoredAiImage, "prompt" | "style" | "createdAt" | "contentType">): string {
  const words = image.prompt
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 48)
    .replace(/-+$/, "");
  const day = new Date(image.createdAt).toISOString().slice(0, 10);
  const extension = EXTENSIONS[image.contentType] ?? "bin";
  return ["portico", image.style, day, words].filter(Boolean).join("-") + `.${extension}`;
}

export interface LinkedAiImage extends StoredAiImage {
  /** Where the image is served (session of the admin), and where it is served as a download. */
  url: string;
  downloadUrl: string;
  filename: string;
}

/** An image with the addresses the page shows and saves it from (workers/api/ai.ts serves them). */
export function linkAiImage(image: StoredAiImage): LinkedAiImage {
  const url = `/api/ai/images/${image.id}`;
  return { ...image, url, downloadUrl: `${url}?download=1`, filename: aiImageFilename(image) };
}
