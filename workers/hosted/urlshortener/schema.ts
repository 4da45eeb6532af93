import { z } from "zod";
import { checkDestination, MAX_URL_LENGTH } from "./destination";

export const ALIAS_PATTERN = /^[A-Za-z0-9_-]{3,30}$/;
/** Links may live at most ten years; longer is what `expiresAt: null` is for. */
export const MAX_LIFETIME_MS = 10 * 365 * 24 * 60 * 60 * 1000;

export const AliasSchema = z.string().regex(ALIAS_PATTERN, "3 to 30 letters, digits, - or _");

/** A destination `checkDestination` accepts, in the form stored and redirected to. */
export const DestinationSchema = z
  .string({ error: "url is required" })
  .trim()
  .max(MAX_URL_LENGTH, `at most ${MAX_URL_LENGTH} characters`)
  .transform((value, ctx) => {
    const checked = checkDestination(value);
    if (checked.ok) return checked.url;
    ctx.addIssue({ code: "custom", message: checked.reason });
    return z.NEVER;
  })
  .describe("the long URL: http or https, on a public host");

export const CreateShortLinkSchema = z
  .object({
    url: DestinationSchema,
    alias: AliasSchema.optional().describe("your own alias; a random 7-character one when left out"),
    expiresAt: z
      .union([z.iso.datetime({ offset: true }), z.number().int().positive()])
      .optional()
      .describe("when the link stops working: an ISO date-time or epoch milliseconds"),
    expiresIn: z.coerce
      .number()
      .int()
      .min(60)
      .max(MAX_LIFETIME_MS / 1000)
      .optional()
      .describe("or a lifetime in seconds from now"),
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

export type CreateShortLinkInput = z.output<typeof CreateShortLinkSchema>;
export type AliasParam = z.output<typeof AliasParamSchema>;
export type ListShortLinksInput = z.output<typeof ListShortLinksSchema>;

export const ShortLinkListSchema = z.object({
  links: z.array(ShortLinkSchema),
  page: z.number().int(),
  totalPages: z.number().int(),
});

export const DeletedShortLinkSchema = z.object({ deleted: z.literal(true), alias: z.string() });
