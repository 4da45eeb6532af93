import { z } from "zod";

export const ALIAS_PATTERN = /^[A-Za-z0-9_-]{3,30}$/;
export const MAX_URL_LENGTH = 2048;
/** Links may live at most ten years; longer is what `expiresAt: null` is for. */
const MAX_LIFETIME_MS = 10 * 365 * 24 * 60 * 60 * 1000;

export const AliasSchema = z.string().regex(ALIAS_PATTERN, "3 to 30 letters, digits, - or _");

export const CreateShortLinkSchema = z
  .object({
    url: z
      .string({ error: "url is required" })
      .trim()
      .max(MAX_URL_LENGTH, `at most ${MAX_URL_LENGTH} characters`)
      .refine((value) => {
        try {
          const url = new URL(value);
          return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.length > 0;
        } catch {
          return false;
        }
      }, "an absolute http:// or https:// URL"),
    alias: AliasSchema.optional(),
    /** When the link stops working: an ISO date-time or epoch milliseconds. */
    expiresAt: z.union([z.iso.datetime({ offset: true }), z.number().int().positive()]).optional(),
    /** Or a lifetime in seconds from now. */
    expiresIn: z.coerce
      .number()
      .int()
      .min(60)
      .max(MAX_LIFETIME_MS / 1000)
      .optional(),
  })
  .refine((input) => !(input.expiresAt && input.expiresIn), {
    message: "give expiresAt or expiresIn, not both",
    path: ["expiresIn"],
  });

export const ShortLinkSchema = z.object({
  shortUrl: z.string(),
  alias: z.string(),
  url: z.string(),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  clicks: z.number().int(),
});

export const AliasParamSchema = z.object({ alias: AliasSchema });

export const ListShortLinksSchema = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

const CountSchema = z.array(z.object({ key: z.string(), clicks: z.number().int() }));

export const ShortLinkStatsSchema = z.object({
  link: ShortLinkSchema,
  byDay: z.array(z.object({ day: z.string(), clicks: z.number().int() })),
  byReferrer: CountSchema,
  byCountry: CountSchema,
});
