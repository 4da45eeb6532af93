/**
 * Saved avatars and saved QR codes (docs/product.md#saved-lists: "save appends; delete resets
 * to empty"; docs/decisions/047-saved-items.md). D1 keeps each item's *inputs*, checked by the
 * hosted API's own operation (its zod schema, then one real render), so a saved item always
 * draws again; the bytes are drawn on demand by the same operation the API serves, reached only
 * through its folder's public `definition`, loaded when a list is first read or drawn (decision 064). Drawing a saved item is not an API call: it takes no
 * key and counts nothing against the month, so it has a throttle of its own.
 */
import type { z } from "zod";
import type { HandlerResult, HostedApiDefinition, Operation, OperationContext } from "~workers/hosted/definition";
import { loadDefinition } from "~workers/hosted/definitions";
import { findHostedApi } from "~workers/hosted/registry";
import { createId } from "./ids";
import { effectivePlan, PLANS, plansIncludingGroup, type StoredPlan } from "./plans";
import type { ThrottleRule } from "./throttle";

export const SAVED_LISTS = ["avatars", "qrcodes"] as const;
export type SavedList = (typeof SAVED_LISTS)[number];

/** Items a list holds; the next save is refused until the list is emptied. */
export const SAVED_LIST_LIMIT = 100;

/**
 * Largest save request. Inputs are a few hundred bytes, but a QR code may carry its logo as a
 * data: URL; 64 KiB holds a small logo and keeps a full list under 7 MB of D1 per account.
 */
export const SAVED_BODY_MAX_BYTES = 64 * 1024;
export const SAVED_BODY_TOO_LARGE = `A saved item's input is at most ${SAVED_BODY_MAX_BYTES / 1024} KiB. A large QR code logo does not fit: use a smaller image.`;

/**
 * Drawings of saved items (a save draws once too) per account and minute. Both full lists on
 * one page are 200 images, which the browser then caches; this is room for that and a few
 * downloads, and stops a script using the lists as an unmetered image service.
 */
export const SAVED_RENDER_RULE: ThrottleRule = { name: "saved-render", limit: 300, windowMs: 60_000 };

interface ListApi {
  slug: string;
  /** The operation a save without `operation` names: the API's POST call. */
  defaultOperationId: string;
  /** One item, in words: "avatar", "QR code". */
  noun: string;
}

const LIST_APIS: Record<SavedList, ListApi> = {
  avatars: { slug: "avatar", defaultOperationId: "createAvatar", noun: "avatar" },
  qrcodes: { slug: "qrcode", defaultOperationId: "createQrCode", noun: "QR code" },
};

async function definitionOf(list: SavedList): Promise<HostedApiDefinition> {
  const definition = await loadDefinition(LIST_APIS[list].slug);
  if (!definition) throw new Error(`The ${list} list's API, ${LIST_APIS[list].slug}, has no definition`);
  return definition;
}

export function isSavedList(name: string): name is SavedList {
  return (SAVED_LISTS as readonly string[]).includes(name);
}

export function savedListNoun(list: SavedList): string {
  return LIST_APIS[list].noun;
}

/**
 * The operations whose answer a list can keep: those that draw an image from a JSON body or a
 * query string. Read from the definition each time, so options and operations the API gains
 * are saved without a change here (and a decode call, which answers JSON, is not).
 */
function drawingOperations(definition: HostedApiDefinition): Operation[] {
  return definition.operations.filter(
    (operation) =>
      operation.output.kind === "binary" && (operation.inputSource === "json" || operation.inputSource === "query"),
  );
}

export interface SavedItem {
  id: string;
  list: SavedList;
  /** 1 for the first item saved; the list is shown in this order. */
  position: number;
  operationId: string;
  /** The call that draws it again, for "copy the request": method and path under the site. */
  method: string;
  path: string;
  input: Record<string, unknown>;
  createdAt: number;
}

interface SavedItemRow {
  id: string;
  list: SavedList;
  position: number;
  operation_id: string;
  input: string;
  created_at: number;
}

function toSavedItem(row: SavedItemRow, definition: HostedApiDefinition): SavedItem {
  const slug = definition.slug;
  const operation = drawingOperations(definition).find((candidate) => candidate.id === row.operation_id);
  return {
    id: row.id,
    list: row.list,
    position: row.position,
    operationId: row.operation_id,
    method: operation?.method ?? "POST",
    path: `/api/v1/${slug}${operation?.path ?? ""}`,
    input: JSON.parse(row.input) as Record<string, unknown>,
    createdAt: row.created_at,
  };
}

export type SavedInputCheck =
  | { ok: true; operation: Operation; input: Record<string, unknown>; parsed: unknown }
  | { ok: false; code: "unknown-operation"; allowed: string[] }
  | { ok: false; code: "invalid-input"; error: z.ZodError };

/**
 * The input as the list will keep it, parsed by the operation's own schema and cut to the
 * options that schema knows. A query-string operation keeps its values as the text a URL
 * carries (the live demo sends `96`, not 96), so the copied request and the drawing read the
 * same thing.
 */
export async function checkSavedInput(
  list: SavedList,
  operationId: string | undefined,
  input: Record<string, unknown>,
): Promise<SavedInputCheck> {
  const operations = drawingOperations(await definitionOf(list));
  const wanted = operationId ?? LIST_APIS[list].defaultOperationId;
  const operation = operations.find((candidate) => candidate.id === wanted);
  if (!operation) return { ok: false, code: "unknown-operation", allowed: operations.map((candidate) => candidate.id) };
  const kept =
    operation.inputSource === "query"
      ? Object.fromEntries(
          Object.entries(input)
            .filter(([, value]) => value !== undefined && value !== null)
            .map(([name, value]) => [name, typeof value === "string" ? value : JSON.stringify(value)]),
        )
      : input;
  const parsed = operation.input.safeParse(kept);
  if (!parsed.success) return { ok: false, code: "invalid-input", error: parsed.error };
  // Only the options the schema knows are kept: anything else sent along (a key, a signed
  // URL's key_id and signature) would otherwise sit in D1 and in every copied request.
  const known = parsed.data && typeof parsed.data === "object" ? Object.keys(parsed.data) : [];
  const own = Object.fromEntries(Object.entries(kept).filter(([name]) => known.includes(name)));
  return { ok: true, operation, input: own, parsed: parsed.data };
}

/**
 * Whether the account's plan in force includes the list's API: saving a QR code is using the
 * QR Code API, which Free does not include. Drawing an item already saved is not asked this:
 * what was made under a plan stays the account's after it ends.
 */
export function planAllowsList(
  account: StoredPlan,
  list: SavedList,
  now: number = Date.now(),
): { ok: true } | { ok: false; detail: string; plans: string[] } {
  const api = findHostedApi(LIST_APIS[list].slug);
  if (!api) return { ok: true };
  const planId = effectivePlan(account, now);
  const allowed = plansIncludingGroup(api.group);
  if (allowed.includes(planId)) return { ok: true };
  const names = allowed.map((id) => PLANS[id].name).join(" and ");
  return {
    ok: false,
    detail: `Saving a ${LIST_APIS[list].noun} uses the ${api.name} API, which is included in the ${names} plans; yours is ${PLANS[planId].name}.`,
    plans: allowed,
  };
}

/** Draws a saved item again; an input the API's schema no longer takes is said so, not thrown. */
export async function drawSavedItem(item: SavedItem, ctx: OperationContext): Promise<HandlerResult> {
  const checked = await checkSavedInput(item.list, item.operationId, item.input);
  if (!checked.ok) {
    return {
      kind: "problem",
      type: "invalid-input",
      detail: `This saved ${LIST_APIS[item.list].noun} no longer matches the API's options; save it again from the live demo.`,
    };
  }
  return checked.operation.handler(checked.parsed, ctx);
}

const COLUMNS = `id, list, position, operation_id, input, created_at`;

export async function listSavedItems(db: D1Database, userId: string, list: SavedList): Promise<SavedItem[]> {
  const rows = await db
    .prepare(`SELECT ${COLUMNS} FROM saved_items WHERE user_id = ? AND list = ? ORDER BY position`)
    .bind(userId, list)
    .all<SavedItemRow>();
  const definition = await definitionOf(list);
  return rows.results.map((row) => toSavedItem(row, definition));
}

export async function findSavedItem(
  db: D1Database,
  userId: string,
  list: SavedList,
  id: string,
): Promise<SavedItem | null> {
  const row = await db
    .prepare(`SELECT ${COLUMNS} FROM saved_items WHERE id = ? AND user_id = ? AND list = ?`)
    .bind(id, userId, list)
    .first<SavedItemRow>();
  return row ? toSavedItem(row, await definitionOf(list)) : null;
}

/**
 * Appends an item, unless the list already holds SAVED_LIST_LIMIT. The count and the next
 * position are read inside the one INSERT, so two saves at once can neither both slip past the
 * limit nor take the same place (and UNIQUE (user_id, list, position) would refuse it).
 */
export async function appendSavedItem(
  db: D1Database,
  userId: string,
  list: SavedList,
  operationId: string,
  input: Record<string, unknown>,
  now: number = Date.now(),
): Promise<{ ok: true; item: SavedItem } | { ok: false; code: "list-full" }> {
  const row = await db
    .prepare(
      `INSERT INTO saved_items (id, user_id, list, position, operation_id, input, created_at)
       SELECT ?, ?, ?, COALESCE((SELECT MAX(position) FROM saved_items WHERE user_id = ? AND list = ?), 0) + 1, ?, ?, ?
       WHERE (SELECT COUNT(*) FROM saved_items WHERE user_id = ? AND list = ?) < ?
       RETURNING ${COLUMNS}`,
    )
    .bind(
      createId("svd"),
      userId,
      list,
      userId,
      list,
      operationId,
      JSON.stringify(input),
      now,
      userId,
      list,
      SAVED_LIST_LIMIT,
    )
    .first<SavedItemRow>();
  return row ? { ok: true, item: toSavedItem(row, await definitionOf(list)) } : { ok: false, code: "list-full" };
}

/** Empties the list ("delete resets to empty"); answers how many items went. */
export async function clearSavedList(db: D1Database, userId: string, list: SavedList): Promise<number> {
  const result = await db.prepare(`DELETE FROM saved_items WHERE user_id = ? AND list = ?`).bind(userId, list).run();
  return result.meta.changes;
}
