/**
 * The seed product's `POST /api/download/videos`, which the public clients of the product the
 * specification describes call (Telegram and Discord bots, a Django pipeline, a Node backend),
 * with the key in `X-Avatar-Key` (decision 052):
 *
 *   body     { video_url, type: instagram|youtube|facebook|linkedin|twitter|pinterest|profile_pic,
 *              user_id?, with_metadata? }
 *   answer   { success: 1, data: [ { url, thumbnail, type } ] }          clients read data[0].url
 *            YouTube with `with_metadata`: also message: { data: [ { url, thumbnail } ] }
 *            `type: "profile_pic"`: { success: 1, profilePic, full_name, bio, followers, following }
 *   failure  problem+json with `success: 0` and `message` beside the standard members
 *
 * served by `downloadMedia` (and `getProfile` for `profile_pic`) through the gateway, which
 * reshapes their answers here. `type` is checked to be one of the names the clients send, but
 * the platform is the URL's: a bot that sends `type: "instagram"` for every link still gets a
 * YouTube link's media. `user_id` is accepted and not used.
 *
 * `data` lists one file per item of the post, in the post's order (a carousel's pictures and
 * videos, a thread's videos): the item's best file that plays as it is, a video that carries
 * its sound or an image, so `data[0]` is a file a bot can post (YouTube's best is a video-only
 * stream, which would be silent; its muxed 360p is chosen here). An item with neither (an
 * audio post) answers its best file all the same.
 */
import { z } from "zod";
import type { LegacyRoute } from "../definition";
import { toJsonSchema } from "../describe";
import { PINNED_PROFILE } from "./profile";
import { MAX_URL_LENGTH } from "./recognise";
import type { DownloadAnswer } from "./schema";

export const LEGACY_TYPES = [
  "instagram",
  "youtube",
  "facebook",
  "linkedin",
  "twitter",
  "pinterest",
  "profile_pic",
] as const;

/** The older body; unknown members pass (clients send their own), and those named here are checked. */
export const LegacyDownloadSchema = z.looseObject({
  video_url: z
    .string({ error: "Give the post's link in video_url." })
    .min(1, "Give the post's link in video_url.")
    // The new path's own bound, checked here so an over-long link is refused as the field the client sent.
    .max(MAX_URL_LENGTH, `video_url is at most ${MAX_URL_LENGTH} characters.`)
    .meta({ description: "The post's link (or, with `type: \"profile_pic\"`, the Instagram profile's)." }),
  type: z.enum(LEGACY_TYPES, { error: `type is one of ${LEGACY_TYPES.join(", ")}.` }).meta({
    description:
      "The platform the client thinks the link is on; the link itself decides. `profile_pic` asks for an Instagram profile's picture and counts instead of a post.",
  }),
  user_id: z
    .union([z.string(), z.number()], { error: "user_id is a string or a number." })
    .optional()
    .meta({ description: "The client's own user id: accepted, not used." }),
  with_metadata: z
    .union([z.boolean(), z.enum(["true", "false"]), z.literal(1), z.literal(0)], {
      error: "with_metadata is true or false.",
    })
    .optional()
    .meta({ description: "With a YouTube link, also answer `message.data` (a client of the seed product reads it)." }),
});
type LegacyDownload = z.output<typeof LegacyDownloadSchema>;

const isTrue = (value: unknown) => value === true || value === "true" || value === 1;

/** The older body as `downloadMedia`'s (or `getProfile`'s) input; a ZodError names the older field at fault. */
export function adaptLegacyDownload(raw: Record<string, unknown>): Record<string, unknown> {
  const body: LegacyDownload = LegacyDownloadSchema.parse(raw);
  return { url: body.video_url };
}

export interface LegacyItem {
  url: string;
  thumbnail: string | null;
  type: "video" | "audio" | "image";
}

/** `data`: one file per item, in the post's order: its best that plays as it is, else its best. */
export function legacyItems(answer: DownloadAnswer): LegacyItem[] {
  const playable = (media: DownloadAnswer["media"][number]) =>
    media.type === "image" || (media.type === "video" && media.hasAudio);
  // The answer lists the items in order, each item's files best first (handler.ts).
  const items = Map.groupBy(answer.media, (media) => media.item);
  return [...items.values()].flatMap((files) => {
    const chosen = files.find(playable) ?? files[0];
    return chosen
      ? [
          {
            url: chosen.url,
            // A picture is its own thumbnail; a video's is the post's.
            thumbnail: chosen.type === "image" ? chosen.url : answer.thumbnail,
            type: chosen.type,
          },
        ]
      : [];
  });
}

interface ProfileAnswer {
  fullName: string | null;
  bio: string | null;
  profilePic: string;
  followers: number | null;
  following: number | null;
}

export function legacyDownloadAnswer(body: unknown, call: { operationId: string; raw: Record<string, unknown> }) {
  if (call.operationId === "getProfile") {
    const profile = body as ProfileAnswer;
    return {
      success: 1,
      profilePic: profile.profilePic,
      full_name: profile.fullName,
      bio: profile.bio,
      followers: profile.followers,
      following: profile.following,
    };
  }
  const answer = body as DownloadAnswer;
  const data = legacyItems(answer);
  if (answer.platform === "youtube" && isTrue(call.raw.with_metadata)) {
    return { success: 1, data, message: { data: data.map(({ url, thumbnail }) => ({ url, thumbnail })) } };
  }
  return { success: 1, data };
}

const LegacyItemSchema = z.object({
  url: z.string().meta({ description: "The file: the platform's CDN, or a tunnel URL on our host for 15 minutes." }),
  thumbnail: z.string().nullable(),
  type: z.enum(["video", "audio", "image"]),
});

/** What the older clients read: a post's files, or with `type: "profile_pic"` the profile. */
export const LegacyAnswerSchema = z.union([
  z
    .object({
      success: z.literal(1),
      data: z.array(LegacyItemSchema),
      message: z
        .object({ data: z.array(LegacyItemSchema.pick({ url: true, thumbnail: true })) })
        .optional()
        .meta({ description: "Only for a YouTube link with `with_metadata`: `data` again, as `{ url, thumbnail }`." }),
    })
    .meta({ description: "A post's files: one per item, in the post's order." }),
  z
    .object({
      success: z.literal(1),
      profilePic: z.string(),
      full_name: z.string().nullable(),
      bio: z.string().nullable(),
      followers: z.int().nullable(),
      following: z.int().nullable(),
    })
    .meta({ description: '`type: "profile_pic"`: the Instagram profile.' }),
]);

export const LEGACY_DOWNLOAD_ROUTE: LegacyRoute = {
  method: "POST",
  path: "/api/download/videos",
  operationId: "downloadMedia",
  select: (raw) => (raw.type === "profile_pic" ? "getProfile" : undefined),
  adapt: adaptLegacyDownload,
  answer: {
    json: legacyDownloadAnswer,
    problemMembers: { success: 0 },
    schema: LegacyAnswerSchema,
    example: {
      success: 1,
      data: [
        {
          url: "https://portico.dev/api/v1/youtube-instagram-video-downloader/tunnel/eyJ1Ijoi….p2Qa",
          thumbnail: "https://i.ytimg.com/vi/aqz-KE-bpKQ/maxresdefault.jpg",
          type: "video",
        },
      ],
      message: {
        data: [
          {
            url: "https://portico.dev/api/v1/youtube-instagram-video-downloader/tunnel/eyJ1Ijoi….p2Qa",
            thumbnail: "https://i.ytimg.com/vi/aqz-KE-bpKQ/maxresdefault.jpg",
          },
        ],
      },
    },
  },
  input: {
    summary:
      "`video_url` and `type` (`instagram`, `youtube`, `facebook`, `linkedin`, `twitter`, `pinterest`; the link decides the platform), `user_id` (accepted, not used) and `with_metadata`. " +
      "The answer is `{ success: 1, data: [{ url, thumbnail, type }] }`, where `data` lists one file per item of the post in its order (a carousel's or a thread's every item), each the item's best file that plays as it is (a video with its sound, an image); with a YouTube link and `with_metadata: true`, `message.data` repeats them as `{ url, thumbnail }`. " +
      `\`type: "profile_pic"\` with an Instagram profile's link (\`${PINNED_PROFILE}\`) answers \`{ success: 1, profilePic, full_name, bio, followers, following }\`. ` +
      "A failure is the same problem as on the new path, with `success: 0` and `message`.",
    schema: toJsonSchema(LegacyDownloadSchema, "input"),
    // The pinned YouTube post (index.ts's PINNED_POSTS, which imports this module).
    example: { video_url: "https://www.youtube.com/watch?v=aqz-KE-bpKQ", type: "youtube", with_metadata: true },
  },
};
