import { json, problemResult, type HandlerResult, type OperationContext } from "../definition";
import { ownHostOf } from "./destination";
import { generateAlias, shortLinkView } from "./links";
import { MAX_LIFETIME_MS, type AliasParam, type CreateShortLinkInput, type ListShortLinksInput } from "./schema";

/** Tries for a free random alias; at 62^7 aliases a collision is rare, five in a row unheard of. */
const RANDOM_ALIAS_ATTEMPTS = 5;

type Expiry = { ok: true; expiresAt: number | null } | { ok: false; detail: string };

function expiryOf(input: CreateShortLinkInput, now: number): Expiry {
  if (input.expiresIn !== undefined) return { ok: true, expiresAt: now + input.expiresIn * 1000 };
  if (input.expiresAt === undefined) return { ok: true, expiresAt: null };
  const expiresAt = typeof input.expiresAt === "number" ? input.expiresAt : Date.parse(input.expiresAt);
  if (expiresAt <= now) {
    // Epoch seconds read as milliseconds land in January 1970: say so, it is the usual slip.
    const hint = typeof input.expiresAt === "number" ? " (epoch milliseconds, not seconds)" : "";
    return { ok: false, detail: `expiresAt is in the past${hint}.` };
  }
  // Also keeps the date inside what `Date` can print back.
  if (expiresAt - now > MAX_LIFETIME_MS) {
    return { ok: false, detail: "expiresAt is more than ten years away; leave it out for a link that never expires." };
  }
  return { ok: true, expiresAt };
}

export async function handleCreateShortLink(
  input: CreateShortLinkInput,
  ctx: OperationContext,
): Promise<HandlerResult> {
  const now = Date.now();
  const expiry = expiryOf(input, now);
  if (!expiry.ok) return problemResult("invalid-input", expiry.detail, { errors: { expiresAt: expiry.detail } });
  const ownHost = ownHostOf(input.url, { origin: ctx.origin, publicHosts: ctx.publicHosts });
  if (ownHost !== null) {
    const message =
      `${new URL(input.url).hostname} is one of this site's own hosts (${ownHost} and its subdomains). ` +
      "Links to our own hosts are refused, so that no short link can lead to another and build a chain or a loop.";
    return problemResult("invalid-input", `url: ${message}`, { errors: { url: message } });
  }
  const attempts = input.alias === undefined ? RANDOM_ALIAS_ATTEMPTS : 1;
  for (let attempt = 0; attempt < attempts; attempt++) {
    const row = await ctx.shortLinks.create(
      { alias: input.alias ?? generateAlias(), url: input.url, expiresAt: expiry.expiresAt },
      now,
    );
    if (row) return json(shortLinkView(row, ctx.origin), 201);
  }
  if (input.alias === undefined) {
    console.error("urlshortener: no free random alias", ctx.requestId);
    return problemResult("service-unavailable", "No free alias was found. Please retry.");
  }
  return problemResult("conflict", `The alias ${input.alias} is taken. Choose another.`, {
    errors: { alias: "taken" },
  });
}

export async function handleListShortLinks(input: ListShortLinksInput, ctx: OperationContext): Promise<HandlerResult> {
  const { rows, total } = await ctx.shortLinks.list(input.page, input.limit);
  return json({
    links: rows.map((row) => shortLinkView(row, ctx.origin)),
    page: input.page,
    totalPages: Math.max(1, Math.ceil(total / input.limit)),
  });
}

export async function handleShortLinkStats(input: AliasParam, ctx: OperationContext): Promise<HandlerResult> {
  const row = await ctx.shortLinks.find(input.alias);
  if (!row) return problemResult("not-found", `You have no link with the alias ${input.alias}.`);
  return json({ link: shortLinkView(row, ctx.origin), ...(await ctx.shortLinks.stats(row)) });
}

export async function handleDeleteShortLink(input: AliasParam, ctx: OperationContext): Promise<HandlerResult> {
  const deleted = await ctx.shortLinks.delete(input.alias);
  return deleted
    ? json({ deleted: true, alias: input.alias })
    : problemResult("not-found", `You have no link with the alias ${input.alias}.`);
}
