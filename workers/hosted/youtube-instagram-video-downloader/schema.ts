import { z } from "zod";
import { PLATFORMS } from "../capabilities";
import { MAX_URL_LENGTH } from "./recognise";

export const QUALITIES = ["best", "1080", "720", "480", "360", "audio"] as const;
export type Quality = (typeof QUALITIES)[number];

/**
 * `1080p` and the number 1080 are what a caller writes as often as "1080": read them as it.
 * Anything else goes to the enum as it came, so its message lists the allowed values.
 */
const QualityField = z.preprocess(
  (value) => {
    if (typeof value === "number") return String(value);
    if (typeof value === "string")
      return value
        .trim()
        .toLowerCase()
        .replace(/^(\d{3,4})p$/, "$1");
    return value;
  },
  z.enum(QUALITIES, { error: `quality is one of ${QUALITIES.join(", ")}.` }),
);

export const DownloadInputSchema = z.object({
  url: z
    .string({ error: "Give the post's URL, such as https://www.youtube.com/watch?v=aqz-KE-bpKQ." })
    .min(1, "Give the post's URL, such as https://www.youtube.com/watch?v=aqz-KE-bpKQ.")
    .max(MAX_URL_LENGTH, `A post URL is at most ${MAX_URL_LENGTH} characters.`)
    .meta({
      description:
        "The post's link as the platform's Share button gives it: YouTube (watch, youtu.be, shorts, live, embed, m. and music.), Instagram (p, reel, reels, tv, instagr.am), Facebook (videos, watch, reel, share/v, share/r, fb.watch), X or Twitter status links, LinkedIn (posts, feed/update), Pinterest (pin, pin.it, country domains). Tracking parameters are ignored.",
      examples: ["https://www.youtube.com/watch?v=aqz-KE-bpKQ"],
    }),
  quality: QualityField.default("best").meta({
    description:
      "`best` answers every quality, best first; `1080`, `720`, `480` or `360` leaves out each item's videos larger than that on their short side (an item whose videos are all larger keeps its smallest, so no item is lost); `audio` is `audioOnly: true`. `1080p` is read as `1080`.",
  }),
  audioOnly: z.boolean({ error: "audioOnly is true or false." }).default(false).meta({
    description:
      "Answer only sound: the audio streams where the platform has them (YouTube), else the videos that carry sound (`type: video`), best first.",
  }),
});
export type DownloadInput = z.output<typeof DownloadInputSchema>;

export const MediaSchema = z.object({
  item: z.int().nonnegative().meta({
    description:
      "Which item of the post this file is, from 0 in the post's order: a carousel's or a thread's items are separate items, and a video's qualities share its item.",
  }),
  url: z.string().meta({
    description:
      "Where to download it: the platform's own CDN, or, where the platform's URL works only from the address that asked for it (YouTube), a signed tunnel URL on our host that expires in minutes.",
  }),
  type: z.enum(["video", "audio", "image"]),
  quality: z
    .string()
    .nullable()
    .meta({ description: "The platform's label where it has one: `1080p`, `720p`, `audio 128k`, `original`." }),
  width: z.int().nullable(),
  height: z.int().nullable(),
  mimeType: z.string().meta({ description: "`video/mp4`, `video/webm`, `audio/mp4`, `image/jpeg`, …" }),
  hasAudio: z
    .boolean()
    .meta({ description: "The file carries sound (false for YouTube's video-only streams, true for audio)." }),
  sizeBytes: z.int().optional().meta({ description: "The file's size where the platform says it." }),
});
export type Media = z.infer<typeof MediaSchema>;

export const DownloadAnswerSchema = z.object({
  platform: z.enum(PLATFORMS),
  id: z
    .string()
    .meta({ description: "The platform's id of the post: a video id, a shortcode, a tweet id, an activity number." }),
  title: z.string().nullable(),
  author: z.object({
    name: z.string().nullable(),
    handle: z.string().nullable(),
    url: z.string().nullable(),
  }),
  thumbnail: z.string().nullable(),
  durationSec: z.number().nullable(),
  media: z.array(MediaSchema).meta({
    description:
      "Every item of the post (a carousel's or a thread's all) in the post's order, `item` telling them apart; within an item, best first: videos by size (the short side where width and height are known, else the quality label's number; unknown sizes last), then (at equal sizes) a file with sound before one without, then by bitrate and size; then audio by bitrate; then images.",
  }),
});
export type DownloadAnswer = z.infer<typeof DownloadAnswerSchema>;
