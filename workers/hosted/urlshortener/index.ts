/**
 * URL Shortener: short links under `/s/<alias>`, with custom aliases, expiry and click stats
 * (by day, referring host and country). Redirects are served by `redirect.ts`, outside the
 * gateway: people who click a link carry no API key.
 */
import { defineOperation, type HostedApiDefinition } from "../definition";
import { handleCreateShortLink, handleDeleteShortLink, handleListShortLinks, handleShortLinkStats } from "./handler";
import {
  AliasParamSchema,
  CreateShortLinkSchema,
  DeletedShortLinkSchema,
  ListShortLinksSchema,
  ShortLinkListSchema,
  ShortLinkSchema,
  ShortLinkStatsSchema,
} from "./schema";

/**
 * The create example gives no alias: it is also the live demo's default input, and a fixed alias
 * would be taken by the first person to try it, answering everyone after with a 409. Its answer
 * shows a random alias; the other calls show a link made earlier with the custom alias "docs-qr".
 * The destination is not on portico.dev: links to our own hosts are refused.
 */
const CREATED_LINK = {
  shortUrl: "https://portico.dev/s/kR7x2Qa",
  alias: "kR7x2Qa",
  url: "https://example.com/blog/2026/launch-notes",
  createdAt: "2026-11-22T09:30:00.000Z",
  expiresAt: "2026-12-22T09:30:00.000Z",
  clicks: 0,
};

const CUSTOM_ALIAS_LINK = {
  shortUrl: "https://portico.dev/s/docs-qr",
  alias: "docs-qr",
  url: "https://example.com/blog/2026/launch-notes",
  createdAt: "2026-11-20T16:05:00.000Z",
  expiresAt: null,
  clicks: 3,
};

export const definition: HostedApiDefinition = {
  slug: "urlshortener",
  operations: [
    defineOperation({
      id: "createShortLink",
      method: "POST",
      path: "",
      successStatus: 201,
      errors: [
        { type: "conflict", when: "The alias you chose is taken; `errors.alias` says so." },
        { type: "service-unavailable", when: "No free random alias was found; retry." },
      ],
      summary: "Shorten a URL",
      description:
        "Makes `https://portico.dev/s/<alias>` redirect to your URL. Choose the alias (3–30 letters, digits, - or _; case matters) or leave it out for a random one; a taken alias is answered 409. " +
        "Set `expiresAt` or `expiresIn` (seconds, up to ten years) to make the link stop; after that it leads to a page saying it has expired. " +
        "The URL must be http or https on a public host: other schemes (javascript:, data:, file:), user names and passwords in the URL, and loopback, private or local-network hosts are refused, and so is any address on this site's own hosts (portico.dev, its subdomains and our workers.dev hosts), so a short link can never lead to another. " +
        "Redirects are 302, so every click is counted.",
      inputSource: "json",
      input: CreateShortLinkSchema,
      output: { kind: "json", schema: ShortLinkSchema, example: CREATED_LINK },
      example: { url: "https://example.com/blog/2026/launch-notes", expiresIn: 2_592_000 },
      handler: handleCreateShortLink,
    }),
    defineOperation({
      id: "listShortLinks",
      method: "GET",
      path: "/links",
      summary: "List your short links",
      description: "Newest first, `limit` (1–100, default 20) to a page.",
      inputSource: "query",
      input: ListShortLinksSchema,
      output: {
        kind: "json",
        schema: ShortLinkListSchema,
        example: { links: [CREATED_LINK, CUSTOM_ALIAS_LINK], page: 1, totalPages: 1 },
      },
      example: { page: 1, limit: 20 },
      handler: handleListShortLinks,
    }),
    defineOperation({
      id: "getShortLinkStats",
      errors: [{ type: "not-found", when: "You have no link with this alias." }],
      method: "GET",
      path: "/links/:alias",
      summary: "A link and its clicks by day, referrer and country",
      description:
        "Days are UTC dates, oldest first. The referrer is the referring site's host name only (an empty key: no referrer sent), the country the visitor's ISO code as the edge saw it (empty when unknown).",
      inputSource: "query",
      input: AliasParamSchema,
      output: {
        kind: "json",
        schema: ShortLinkStatsSchema,
        example: {
          link: CUSTOM_ALIAS_LINK,
          byDay: [
            { day: "2026-11-21", clicks: 1 },
            { day: "2026-11-22", clicks: 2 },
          ],
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
      handler: handleShortLinkStats,
    }),
    defineOperation({
      id: "deleteShortLink",
      errors: [{ type: "not-found", when: "You have no link with this alias." }],
      method: "DELETE",
      path: "/links/:alias",
      summary: "Delete a short link",
      description: "The alias stops redirecting at once and can be used again.",
      inputSource: "query",
      input: AliasParamSchema,
      output: { kind: "json", schema: DeletedShortLinkSchema, example: { deleted: true, alias: "docs-qr" } },
      example: { alias: "docs-qr" },
      handler: handleDeleteShortLink,
    }),
  ],
};
