/**
 * `POST /api/v1/youtube-instagram-video-downloader/profile {url}`: an Instagram profile's public
 * face (picture, name, bio, counts), the call the older path's `type: "profile_pic"` makes. It is
 * read by Instagram's extractor through `ctx.social.profile`; its failures are the same typed
 * problems as a post's (handler.ts).
 */
import { z } from "zod";
import { defineOperation, json, problemResult } from "../definition";
import { answerPicture, failureProblem } from "./handler";
import { MAX_URL_LENGTH, recogniseInstagramProfile } from "./recognise";

/** The profile the docs and the live demo show; the Instagram fake records it. */
export const PINNED_PROFILE = "https://www.instagram.com/nasa/";

export const ProfileInputSchema = z.object({
  url: z
    .string({ error: `Give the profile's URL, such as ${PINNED_PROFILE}.` })
    .min(1, `Give the profile's URL, such as ${PINNED_PROFILE}.`)
    .max(MAX_URL_LENGTH, `A profile URL is at most ${MAX_URL_LENGTH} characters.`)
    .meta({
      description:
        "The profile's link (`https://www.instagram.com/<user name>/`, `instagram.com/<user name>`, `instagr.am/<user name>`), or the bare user name (`nasa`, `@nasa`).",
      examples: [PINNED_PROFILE],
    }),
});
export type ProfileInput = z.output<typeof ProfileInputSchema>;

export const ProfileAnswerSchema = z.object({
  username: z.string().meta({ description: "The user name, lower case." }),
  fullName: z.string().nullable().meta({ description: "The name the profile shows, where it has one." }),
  bio: z.string().nullable(),
  profilePic: z.string().meta({ description: "The largest profile picture Instagram gives, on its CDN." }),
  followers: z.int().nullable(),
  following: z.int().nullable(),
});

/** As the Instagram fake records nasa (workers/providers/social/instagram/fixtures.ts), the picture's URL cut short. */
const NASA = {
  username: "nasa",
  fullName: "NASA",
  bio: "Exploring the universe and our home planet. 🌎",
  profilePic:
    "https://scontent-lga3-2.cdninstagram.com/v/t51.2885-19/29090066_159271188110124_1152068159029641216_n.jpg?stp=dst-jpg_s320x320&…",
  followers: 97412345,
  following: 82,
};

export const getProfile = defineOperation({
  id: "getProfile",
  method: "POST",
  path: "/profile",
  summary: "An Instagram profile's picture, name, bio and follower counts",
  description:
    "Give a public Instagram profile's link or user name; the answer is its user name, the name it shows, its bio, the largest profile picture Instagram gives, and its follower and following counts (null where Instagram does not say). " +
    'The older path\'s `type: "profile_pic"` is this call. A call counts when it answers a profile; a failed read is given back to your month, and a link that is not a profile never counts. ' +
    `In development the Instagram fake records ${PINNED_PROFILE}.`,
  inputSource: "json",
  input: ProfileInputSchema,
  output: { kind: "json", schema: ProfileAnswerSchema, example: NASA },
  example: { url: PINNED_PROFILE },
  maxBodyBytes: 4 * 1024,
  errors: [
    { type: "unsupported-url", when: "The URL is not an Instagram profile (a post, another site, a reserved path)." },
    { type: "content-private", when: "The profile is private." },
    { type: "content-unavailable", when: "There is no such profile." },
    { type: "login-required", when: "Instagram asks for a signed-in user or a bot check." },
    { type: "upstream-rate-limited", when: "Instagram throttled us; `Retry-After` says when to try again." },
    { type: "upstream-blocked", when: "Instagram refuses our addresses (`retryable: false`)." },
    { type: "upstream-failed", when: "Instagram could not be reached just now (`retryable: true`)." },
    { type: "extractor-outdated", when: "Instagram's answer no longer has the shape we read." },
  ],
  async handler(input: ProfileInput, ctx) {
    const recognised = recogniseInstagramProfile(input.url);
    if (!recognised.ok) {
      return problemResult("unsupported-url", recognised.reason, { errors: { url: recognised.reason } });
    }
    const outcome = await ctx.social.profile(recognised.username, ctx.signal);
    if (!outcome.ok) return failureProblem(outcome, "instagram", recognised.username);
    const { profile } = outcome;
    return json({
      username: profile.username,
      fullName: profile.fullName,
      bio: profile.bio,
      profilePic: await answerPicture(
        profile.profilePic,
        profile.profilePicBoundToRequester,
        `instagram-${profile.username}-profile`,
        ctx,
      ),
      followers: profile.followers,
      following: profile.following,
    });
  },
});
