/**
 * URL Shortener: short links under `/s/<alias>`, with custom aliases, expiry and click stats
 * (by day, referring host and country). Redirects are served by `redirect.ts`, outside the
 * gateway: people who click a link carry no API key.
 */
import { z } from "zod";
import { defineOperation, json, problemResult, type HostedApiDefinition } from "../definition";
import { deleteOwnLink, findOwnLink, generateAlias, insertLink, linkStats, listLinks, shortLinkView } from "./links";
import {
  AliasParamSchema,
  CreateShortLinkSchema,
  ListShortLinksSchema,
  ShortLinkSchema,
  ShortLinkStatsSchema,
} from "./schema";

const EXAMPLE_LINK = {
  shortUrl: "https://portico.dev/s/docs-qr",
  alias: "docs-qr",
  url: "https://portico.dev/docs/api/qrcode",
  createdAt: "2026-11-22T09:30:00.000Z",
  expiresAt: "2026-12-22T09:30:00.000Z",
  clicks: 0,
};

export const definition: HostedApiDefinition = {
  slug: "urlshortener",
  operations: [
    defineOperation({
      id: "createShortLink",
      method: "POST",
      path: "",
      summary: "Shorten a URL",
      description:
        "Makes `https://portico.dev/s/<alias>` redirect to your URL. Choose the alias (3–30 letters, digits, - or _) or get a random one; set `expiresAt` or `expiresIn` (seconds) to make it stop. Redirects are 302, so every click is counted.",
      inputSource: "json",
      input: CreateShortLinkSchema,
      output: { kind: "json", schema: ShortLinkSchema, example: EXAMPLE_LINK },
      example: { url: "https://portico.dev/docs/api/qrcode", alias: "docs-qr", expiresIn: 2_592_000 },
      async handler(input, ctx) {
        const now = Date.now();
        const expiresAt =
          input.expiresIn !== undefined
            ? now + input.expiresIn * 1000
            : input.expiresAt !== undefined
              ? new Date(input.expiresAt).getTime()
              : null;
        if (expiresAt !== null && expiresAt <= now) return problemResult("invalid-input", "expiresAt is in the past.");
        // A random alias collides once in trillions; a few retries make that moot.
        for (let attempt = 0; attempt < (input.alias ? 1 : 5); attempt++) {
          const alias = input.alias ?? generateAlias();
          const row = await insertLink(
            ctx.env.DB,
            { userId: ctx.account.userId, alias, url: input.url, expiresAt },
            now,
          );
          if (row) return json(shortLinkView(row, ctx.origin), 201);
        }
        return problemResult("conflict", `The alias ${input.alias} is taken. Choose another.`, {
          errors: { alias: "taken" },
        });
      },
    }),
    defineOperation({
      id: "listShortLinks",
      method: "GET",
      path: "/links",
      summary: "List your short links",
      inputSource: "query",
      input: ListShortLinksSchema,
      output: {
        kind: "json",
        schema: z.object({ links: z.array(ShortLinkSchema), page: z.number(), totalPages: z.number() }),
        example: { links: [EXAMPLE_LINK], page: 1, totalPages: 1 },
      },
      example: { page: 1, limit: 20 },
      async handler(input, ctx) {
        const { rows, total } = await listLinks(ctx.env.DB, ctx.account.userId, input.page, input.limit);
        return json({
          links: rows.map((row) => shortLinkView(row, ctx.origin)),
          page: input.page,
          totalPages: Math.max(1, Math.ceil(total / input.limit)),
        });
      },
    }),
    defineOperation({
      id: "getShortLinkStats",
      method: "GET",
      path: "/links/:alias",
      summary: "A link and its clicks by day, referrer and country",
      inputSource: "query",
      input: AliasParamSchema,
      output: {
        kind: "json",
        schema: ShortLinkStatsSchema,
        example: {
          link: { ...EXAMPLE_LINK, clicks: 3 },
          byDay: [{ day: "2026-11-22", clicks: 3 }],
          byReferrer: [
            { key: "news.ycombinator.com", clicks: 2 },
            { key: "", clicks: 1 },
          ],
          byCountry: [
            { key: "IN", clicks: 2 },
            { key: "US", clicks: 1 },
          ],
        },
      },
      example: { alias: "docs-qr" },
      async handler(input, ctx) {
        const row = await findOwnLink(ctx.env.DB, ctx.account.userId, input.alias);
        if (!row) return problemResult("not-found", `You have no link with the alias ${input.alias}.`);
        return json({ link: shortLinkView(row, ctx.origin), ...(await linkStats(ctx.env.DB, row.id)) });
      },
    }),
    defineOperation({
      id: "deleteShortLink",
      method: "DELETE",
      path: "/links/:alias",
      summary: "Delete a short link",
      description: "The alias stops redirecting at once and can be used again.",
      inputSource: "query",
      input: AliasParamSchema,
      output: {
        kind: "json",
        schema: z.object({ deleted: z.literal(true), alias: z.string() }),
        example: { deleted: true, alias: "docs-qr" },
      },
      example: { alias: "docs-qr" },
      async handler(input, ctx) {
        const deleted = await deleteOwnLink(ctx.env.DB, ctx.account.userId, input.alias);
        return deleted
          ? json({ deleted: true, alias: input.alias })
          : problemResult("not-found", `You have no link with the alias ${input.alias}.`);
      },
    }),
  ],
};
