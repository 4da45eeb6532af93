/** Short links over D1: create, list, stats, delete, and resolving a click. */
import { createId } from "~workers/platform/ids";
import { utcDay } from "~workers/platform/usage";

export interface LinkRow {
  id: string;
  alias: string;
  url: string;
  created_at: number;
  expires_at: number | null;
  clicks: number;
}

const LINK_COLUMNS = "id, alias, url, created_at, expires_at, clicks";
/** Generated aliases: 7 characters of a 62-letter alphabet, 3.5e12 of them. */
const ALIAS_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

export function generateAlias(length = 7): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return [...bytes].map((byte) => ALIAS_ALPHABET[byte % ALIAS_ALPHABET.length]).join("");
}

export function shortLinkView(row: LinkRow, origin: string) {
  return {
    shortUrl: `${origin}/s/${row.alias}`,
    alias: row.alias,
    url: row.url,
    createdAt: new Date(row.created_at).toISOString(),
    expiresAt: row.expires_at === null ? null : new Date(row.expires_at).toISOString(),
    clicks: row.clicks,
  };
}

/** Inserts a link; null when the alias is taken (the UNIQUE constraint decides races). */
export async function insertLink(
  db: D1Database,
  link: { userId: string; alias: string; url: string; expiresAt: number | null },
  now: number,
): Promise<LinkRow | null> {
  const row: LinkRow = {
    id: createId("lnk"),
    alias: link.alias,
    url: link.url,
    created_at: now,
    expires_at: link.expiresAt,
    clicks: 0,
  };
  const result = await db
    .prepare(
      `INSERT INTO short_links (id, user_id, alias, url, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (alias) DO NOTHING`,
    )
    .bind(row.id, link.userId, row.alias, row.url, now, row.expires_at)
    .run();
  return result.meta.changes === 1 ? row : null;
}

export async function listLinks(
  db: D1Database,
  userId: string,
  page: number,
  limit: number,
): Promise<{ rows: LinkRow[]; total: number }> {
  const [rows, count] = await db.batch<LinkRow | { total: number }>([
    db
      .prepare(
        `SELECT ${LINK_COLUMNS} FROM short_links WHERE user_id = ? ORDER BY created_at DESC, id LIMIT ? OFFSET ?`,
      )
      .bind(userId, limit, (page - 1) * limit),
    db.prepare(`SELECT COUNT(*) AS total FROM short_links WHERE user_id = ?`).bind(userId),
  ]);
  return {
    rows: (rows?.results ?? []) as LinkRow[],
    total: (count?.results[0] as { total: number } | undefined)?.total ?? 0,
  };
}

export async function findOwnLink(db: D1Database, userId: string, alias: string): Promise<LinkRow | null> {
  return db
    .prepare(`SELECT ${LINK_COLUMNS} FROM short_links WHERE alias = ? AND user_id = ?`)
    .bind(alias, userId)
    .first<LinkRow>();
}

/**
 * Deletes a link and, by the foreign key's cascade, its clicks. RETURNING says whether the link
 * was there: D1's `meta.changes` counts the cascaded click rows too, so it is not 1 for a link
 * that has been clicked.
 */
export async function deleteOwnLink(db: D1Database, userId: string, alias: string): Promise<boolean> {
  const deleted = await db
    .prepare(`DELETE FROM short_links WHERE alias = ? AND user_id = ? RETURNING id`)
    .bind(alias, userId)
    .first<{ id: string }>();
  return deleted !== null;
}

export async function linkStats(db: D1Database, linkId: string) {
  const [byDay, byReferrer, byCountry] = await db.batch<{ key: string; clicks: number }>([
    db
      .prepare(
        `SELECT day AS key, SUM(clicks) AS clicks FROM short_link_clicks WHERE link_id = ? GROUP BY day ORDER BY day`,
      )
      .bind(linkId),
    db
      .prepare(
        `SELECT referrer AS key, SUM(clicks) AS clicks FROM short_link_clicks WHERE link_id = ? GROUP BY referrer ORDER BY clicks DESC LIMIT 50`,
      )
      .bind(linkId),
    db
      .prepare(
        `SELECT country AS key, SUM(clicks) AS clicks FROM short_link_clicks WHERE link_id = ? GROUP BY country ORDER BY clicks DESC LIMIT 50`,
      )
      .bind(linkId),
  ]);
  return {
    byDay: (byDay?.results ?? []).map((row) => ({ day: row.key, clicks: row.clicks })),
    byReferrer: byReferrer?.results ?? [],
    byCountry: byCountry?.results ?? [],
  };
}

/**
 * One account's short links, as the shortener's handlers reach them (`ctx.shortLinks`): every
 * read and write is already limited to the caller's own links, so no handler can forget to.
 */
export interface OwnShortLinks {
  /** Null when the alias is taken. */
  create(link: { alias: string; url: string; expiresAt: number | null }, now: number): Promise<LinkRow | null>;
  list(page: number, limit: number): Promise<{ rows: LinkRow[]; total: number }>;
  find(alias: string): Promise<LinkRow | null>;
  /** Clicks by day, referrer and country of a link `find` returned. */
  stats(link: LinkRow): ReturnType<typeof linkStats>;
  /** False when the account has no link with this alias. */
  delete(alias: string): Promise<boolean>;
}

/** The short links of every account, handed to a handler one account at a time. */
export interface ShortLinkStore {
  of(userId: string): OwnShortLinks;
}

export function d1ShortLinks(db: D1Database): ShortLinkStore {
  return {
    of: (userId) => ({
      create: (link, now) => insertLink(db, { ...link, userId }, now),
      list: (page, limit) => listLinks(db, userId, page, limit),
      find: (alias) => findOwnLink(db, userId, alias),
      stats: (link) => linkStats(db, link.id),
      delete: (alias) => deleteOwnLink(db, userId, alias),
    }),
  };
}

export type Resolution = { kind: "found"; row: LinkRow } | { kind: "expired" } | { kind: "missing" };

export async function resolveAlias(db: D1Database, alias: string, now: number): Promise<Resolution> {
  const row = await db.prepare(`SELECT ${LINK_COLUMNS} FROM short_links WHERE alias = ?`).bind(alias).first<LinkRow>();
  if (!row) return { kind: "missing" };
  if (row.expires_at !== null && row.expires_at <= now) return { kind: "expired" };
  return { kind: "found", row };
}

export async function recordClick(
  db: D1Database,
  linkId: string,
  click: { at: number; referrer: string; country: string },
): Promise<void> {
  await db.batch([
    db.prepare(`UPDATE short_links SET clicks = clicks + 1 WHERE id = ?`).bind(linkId),
    db
      .prepare(
        `INSERT INTO short_link_clicks (link_id, day, referrer, country, clicks) VALUES (?, ?, ?, ?, 1)
         ON CONFLICT (link_id, day, referrer, country) DO UPDATE SET clicks = clicks + 1`,
      )
      .bind(linkId, utcDay(click.at), click.referrer, click.country),
  ]);
}

/** The referring host only: full referrer URLs can carry personal data in their paths. */
export function referrerHost(header: string | null): string {
  if (!header) return "";
  try {
    return new URL(header).hostname.slice(0, 253);
  } catch {
    return "";
  }
}
