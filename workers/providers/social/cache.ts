/**
 * Successful extractions kept in KV by the post's canonical URL (`PostRef.url`, which the
 * recogniser builds the same for every spelling of a post) for a few minutes: bots ask for the
 * same viral post many times in a row, and each ask costs the platform's patience (rate limits,
 * blocks). Failures are not kept: a rate limit or a wall may lift on the next try; nor, live, is
 * a post with media bound to the address that asked (index.ts decides). Values are
 * parsed on read, so an entry written by an older shape is a miss, not a crash.
 */
import { z } from "zod";
import { PLATFORMS, type ExtractedPost } from "~workers/hosted/capabilities";

export const SOCIAL_CACHE_TTL_SECONDS = 300;

const ExtractedPostSchema = z.object({
  platform: z.enum(PLATFORMS),
  id: z.string(),
  title: z.string().nullable(),
  author: z.object({ name: z.string().nullable(), handle: z.string().nullable(), url: z.string().nullable() }),
  thumbnail: z.string().nullable(),
  thumbnailBoundToRequester: z.boolean().optional(),
  durationSec: z.number().nullable(),
  media: z
    .array(
      z.object({
        item: z.number().int().nonnegative().optional(),
        url: z.string(),
        type: z.enum(["video", "audio", "image"]),
        quality: z.string().nullable(),
        width: z.number().nullable(),
        height: z.number().nullable(),
        mimeType: z.string(),
        hasAudio: z.boolean(),
        sizeBytes: z.number().optional(),
        bitrate: z.number().optional(),
        boundToRequester: z.boolean().optional(),
        // Kept, or a post answered from the cache would mint tunnel URLs that cannot ask again.
        formatId: z.string().optional(),
      }),
    )
    .min(1),
}) satisfies z.ZodType<ExtractedPost>;

export function socialCacheKey(canonicalUrl: string): string {
  // v2: media carry `item`; a v1 entry (written without it) would answer a carousel as one item.
  return `social:post:v2:${canonicalUrl}`;
}

export async function readCachedPost(kv: KVNamespace, canonicalUrl: string): Promise<ExtractedPost | null> {
  const raw = await kv.get(socialCacheKey(canonicalUrl), "json").catch(() => null);
  const parsed = ExtractedPostSchema.safeParse(raw);
  return parsed.success ? (parsed.data as ExtractedPost) : null;
}

export async function writeCachedPost(kv: KVNamespace, canonicalUrl: string, post: ExtractedPost): Promise<void> {
  // A cache that cannot be written is only a slower next call.
  await kv
    .put(socialCacheKey(canonicalUrl), JSON.stringify(post), { expirationTtl: SOCIAL_CACHE_TTL_SECONDS })
    .catch((error: unknown) => console.warn("[social] cache write failed:", error));
}
