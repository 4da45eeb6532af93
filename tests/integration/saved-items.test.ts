/**
 * Saved avatars and saved QR codes through the Worker, on the real D1 (docs/product.md#saved-lists:
 * "save appends; delete resets to empty"; decision 047): who may save, the order, the
 * cap, emptying, isolation between accounts, the cross-site guard, the API's own validation,
 * and the drawing of a saved item, byte for byte what the API answers for the same input.
 */
import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { sha256Hex } from "~workers/platform/ids";
import { SAVED_LIST_LIMIT, SAVED_RENDER_RULE } from "~workers/platform/saved-items";
import {
  callApi,
  callHosted,
  createAccountWithKey,
  expectProblem,
  randomClientAddress,
  signUpUnverified,
  signUpVerified,
} from "../factories";

const BASE = "https://portico.test";

interface Item {
  id: string;
  position: number;
  operationId: string;
  method: string;
  path: string;
  input: Record<string, unknown>;
  createdAt: number;
}

async function account(plan: "free" | "premium" = "free") {
  const signed = await signUpVerified(SELF);
  const row = await env.DB.prepare(`SELECT id FROM users WHERE email = ?`).bind(signed.email).first<{ id: string }>();
  const userId = row!.id;
  if (plan === "premium") {
    await env.DB.prepare(
      `UPDATE users SET plan_id = 'premium', plan_expires_at = ?, plan_version = plan_version + 1 WHERE id = ?`,
    )
      .bind(Date.now() + 20 * 24 * 60 * 60 * 1000, userId)
      .run();
  }
  return { ...signed, userId };
}

const save = (cookie: string, list: string, body: unknown) =>
  callApi(SELF, "POST", `/api/user/saved/${list}`, { cookie, body });
const listOf = async (cookie: string, list: string) => {
  const response = await callApi(SELF, "GET", `/api/user/saved/${list}`, { cookie });
  expect(response.status).toBe(200);
  return response.json<{ list: string; limit: number; items: Item[] }>();
};
const image = (cookie: string, list: string, id: string, query = "") =>
  SELF.fetch(`${BASE}/api/user/saved/${list}/${id}/image${query}`, {
    headers: { cookie, "cf-connecting-ip": randomClientAddress() },
  });

let apiKey: string;

beforeAll(async () => {
  // A Premium key, to ask the API itself what it answers for the inputs the lists keep.
  apiKey = (await createAccountWithKey(env.DB, { planId: "premium" })).key;
});

describe("saved lists: who may use them", () => {
  it("answers a signed-out caller 401 problem+json on every call", async () => {
    await expectProblem(await callApi(SELF, "GET", "/api/user/saved/avatars"), 401, "unauthenticated");
    await expectProblem(
      await callApi(SELF, "POST", "/api/user/saved/avatars", { body: { input: { seed: "x" } } }),
      401,
      "unauthenticated",
    );
    await expectProblem(await callApi(SELF, "DELETE", "/api/user/saved/qrcodes"), 401, "unauthenticated");
    await expectProblem(await callApi(SELF, "GET", "/api/user/saved/avatars/svd_x/image"), 401, "unauthenticated");
  });

  it("refuses a save by an account whose address is not confirmed, as key creation does", async () => {
    const unproven = await signUpUnverified(SELF);
    const body = await expectProblem(
      await save(unproven.cookie, "avatars", { input: { seed: "a" } }),
      403,
      "forbidden",
    );
    expect(String(body.detail)).toContain("Confirm your email address");
    expect((await listOf(unproven.cookie, "avatars")).items).toEqual([]);
  });

  it("refuses saving a QR code on Free, whose plan does not include the QR Code API", async () => {
    const free = await account("free");
    const body = await expectProblem(
      await save(free.cookie, "qrcodes", { input: { text: "hello" } }),
      403,
      "plan-required",
    );
    expect(String(body.detail)).toContain("QR Code Generator");
    expect(body.plans).toEqual(["standard", "premium"]);
    // Avatars are in every plan.
    expect((await save(free.cookie, "avatars", { input: { seed: "free" } })).status).toBe(201);
  });

  it("answers 404 problem for a list that does not exist", async () => {
    const user = await account();
    const body = await expectProblem(
      await callApi(SELF, "GET", "/api/user/saved/photos", { cookie: user.cookie }),
      404,
      "not-found",
    );
    expect(String(body.detail)).toContain("avatars and qrcodes");
  });

  it("refuses a save and a delete marked cross-site, like every session call, and changes nothing", async () => {
    const user = await account();
    expect((await save(user.cookie, "avatars", { input: { seed: "kept" } })).status).toBe(201);
    for (const method of ["POST", "DELETE"]) {
      const response = await SELF.fetch(`${BASE}/api/user/saved/avatars`, {
        method,
        headers: {
          cookie: user.cookie,
          "content-type": "application/json",
          "sec-fetch-site": "cross-site",
          origin: "https://evil.example",
        },
        body: method === "POST" ? JSON.stringify({ input: { seed: "planted" } }) : undefined,
      });
      const body = await expectProblem(response, 403, "forbidden");
      expect(JSON.stringify(body)).toContain("cross-site");
    }
    const { items } = await listOf(user.cookie, "avatars");
    expect(items.map((item) => item.input.seed)).toEqual(["kept"]);
  });
});

describe("saved lists: save appends, delete empties", () => {
  it("appends in the order saved and lists each item with its inputs and the call that draws it", async () => {
    const user = await account();
    for (const seed of ["first", "second", "third"]) {
      const response = await save(user.cookie, "avatars", { input: { seed, style: "shapes", size: 64 } });
      expect(response.status).toBe(201);
      const { item } = await response.json<{ item: Item }>();
      expect(item.input.seed).toBe(seed);
    }
    const listed = await listOf(user.cookie, "avatars");
    expect(listed.limit).toBe(SAVED_LIST_LIMIT);
    expect(listed.items.map((item) => [item.position, item.input.seed])).toEqual([
      [1, "first"],
      [2, "second"],
      [3, "third"],
    ]);
    expect(listed.items[0]).toMatchObject({
      operationId: "createAvatar",
      method: "POST",
      path: "/api/v1/avatar",
      input: { seed: "first", style: "shapes", size: 64 },
    });
    // The other list is its own.
    expect((await listOf(user.cookie, "qrcodes")).items).toEqual([]);
  });

  it("keeps a GET avatar's input as the query string's text, and names the GET call", async () => {
    const user = await account();
    const response = await save(user.cookie, "avatars", {
      operation: "getAvatar",
      input: { seed: "url", size: 96, flip: true, format: "png" },
    });
    expect(response.status).toBe(201);
    const { item } = await response.json<{ item: Item }>();
    expect(item).toMatchObject({ operationId: "getAvatar", method: "GET", path: "/api/v1/avatar" });
    expect(item.input).toEqual({ seed: "url", size: "96", flip: "true", format: "png" });
    const drawn = await image(user.cookie, "avatars", item.id);
    expect(drawn.headers.get("content-type")).toBe("image/png");
    const api = await callHosted(SELF, "GET", "/api/v1/avatar?seed=url&size=96&flip=true&format=png", { key: apiKey });
    expect(api.status).toBe(200);
    expect(new Uint8Array(await drawn.arrayBuffer())).toEqual(new Uint8Array(await api.arrayBuffer()));
  });

  it("keeps only the API's own options: a key or a signed URL's parts sent along are not stored", async () => {
    const user = await account();
    const response = await save(user.cookie, "avatars", {
      operation: "getAvatar",
      input: { seed: "url", key: "pk_live_secret", key_id: "key_x", expires: "1", signature: "abc" },
    });
    expect(response.status).toBe(201);
    const { item } = await response.json<{ item: Item }>();
    expect(item.input).toEqual({ seed: "url" });
    const [listed] = (await listOf(user.cookie, "avatars")).items;
    expect(JSON.stringify(listed)).not.toContain("pk_live_secret");
  });

  it("empties the list on delete, after which a save starts it again at 1", async () => {
    const user = await account();
    await save(user.cookie, "avatars", { input: { seed: "a" } });
    await save(user.cookie, "avatars", { input: { seed: "b" } });
    const deleted = await callApi(SELF, "DELETE", "/api/user/saved/avatars", { cookie: user.cookie });
    expect(deleted.status).toBe(204);
    expect((await listOf(user.cookie, "avatars")).items).toEqual([]);
    const again = await save(user.cookie, "avatars", { input: { seed: "c" } });
    expect((await again.json<{ item: Item }>()).item.position).toBe(1);
  });

  it(`holds at most ${SAVED_LIST_LIMIT} items and then says the list is full`, async () => {
    const user = await account();
    // 99 saved already (written straight to D1: the cap, not the drawing, is under test).
    const now = Date.now();
    await env.DB.batch(
      Array.from({ length: SAVED_LIST_LIMIT - 1 }, (_, index) =>
        env.DB.prepare(
          `INSERT INTO saved_items (id, user_id, list, position, operation_id, input, created_at) VALUES (?, ?, 'avatars', ?, 'createAvatar', ?, ?)`,
        ).bind(`svd_cap_${user.userId}_${index}`, user.userId, index + 1, JSON.stringify({ seed: `s${index}` }), now),
      ),
    );
    const last = await save(user.cookie, "avatars", { input: { seed: "hundredth" } });
    expect(last.status).toBe(201);
    expect((await last.json<{ item: Item }>()).item.position).toBe(SAVED_LIST_LIMIT);
    const refused = await expectProblem(
      await save(user.cookie, "avatars", { input: { seed: "one more" } }),
      409,
      "conflict",
    );
    expect(String(refused.detail)).toContain(`full (${SAVED_LIST_LIMIT})`);
    expect((await listOf(user.cookie, "avatars")).items).toHaveLength(SAVED_LIST_LIMIT);
  });

  it("never shows one account's items to another, nor draws them", async () => {
    const owner = await account();
    const other = await account();
    const saved = await save(owner.cookie, "avatars", { input: { seed: "mine" } });
    const { item } = await saved.json<{ item: Item }>();
    expect((await listOf(other.cookie, "avatars")).items).toEqual([]);
    await expectProblem(await image(other.cookie, "avatars", item.id), 404, "not-found");
    // Another account emptying its own list leaves this one alone.
    await callApi(SELF, "DELETE", "/api/user/saved/avatars", { cookie: other.cookie });
    expect((await listOf(owner.cookie, "avatars")).items.map((kept) => kept.id)).toEqual([item.id]);
  });
});

describe("saved lists: inputs are the API's own", () => {
  it("refuses an avatar input the API refuses, with the API's own messages per field", async () => {
    const user = await account();
    const input = { seed: "x", size: 5, style: "no-such-style" };
    const refused = await expectProblem(await save(user.cookie, "avatars", { input }), 422, "invalid-input");
    const api = await expectProblem(
      await callHosted(SELF, "POST", "/api/v1/avatar", { key: apiKey, body: input }),
      422,
      "invalid-input",
    );
    expect(refused.errors).toEqual(api.errors);
    expect(Object.keys(refused.errors as object).sort()).toEqual(["size", "style"]);
    expect((await listOf(user.cookie, "avatars")).items).toEqual([]);
  });

  it("refuses a QR code the API's handler refuses (equal colours), with its words", async () => {
    const user = await account("premium");
    const input = { text: "hello", foreground: "#123456", background: "#123456" };
    const refused = await expectProblem(await save(user.cookie, "qrcodes", { input }), 422, "invalid-input");
    const api = await expectProblem(
      await callHosted(SELF, "POST", "/api/v1/qrcode", { key: apiKey, body: input }),
      422,
      "invalid-input",
    );
    expect(refused.detail).toBe(api.detail);
    expect((await listOf(user.cookie, "qrcodes")).items).toEqual([]);
  });

  it("refuses a body without an input object, an unknown operation, and a body over the limit", async () => {
    const user = await account();
    const missing = await expectProblem(await save(user.cookie, "avatars", { seed: "x" }), 422, "invalid-input");
    expect(Object.keys(missing.errors as object)).toEqual(["input"]);
    const unknown = await expectProblem(
      await save(user.cookie, "avatars", { operation: "deleteEverything", input: {} }),
      422,
      "invalid-input",
    );
    expect(String(unknown.detail)).toContain("createAvatar, getAvatar");
    // The save route's own cap and words, not the boundary's generic form limit.
    const tooLarge = await expectProblem(
      await save(user.cookie, "qrcodes", { input: { text: "x", logo: `data:image/png;base64,${"A".repeat(70 * 1024)}` } }),
      413,
      "body-too-large",
    );
    expect(tooLarge.detail).toBe(
      "A saved item's input is at most 64 KiB. A large QR code logo does not fit: use a smaller image.",
    );
  });
});

describe("saved lists: drawing an item again", () => {
  it("draws a saved QR code and a saved avatar byte for byte as the API's POST does for the same input", async () => {
    const user = await account("premium");
    const qrInput = {
      text: "https://portico.dev/saved",
      size: 256,
      format: "png",
      dotStyle: "rounded",
      foreground: "#0f172a",
    };
    const avatarInput = { seed: "ada@example.com", style: "shapes", size: 128, format: "png", radius: 50 };
    const cases = [
      { list: "qrcodes", path: "/api/v1/qrcode", input: qrInput, type: "image/png" },
      { list: "avatars", path: "/api/v1/avatar", input: avatarInput, type: "image/png" },
      { list: "avatars", path: "/api/v1/avatar", input: { ...avatarInput, format: "svg" }, type: "image/svg+xml" },
    ];
    for (const { list, path, input, type } of cases) {
      const saved = await save(user.cookie, list, { input });
      expect(saved.status).toBe(201);
      const { item } = await saved.json<{ item: Item }>();
      const drawn = await image(user.cookie, list, item.id);
      expect(drawn.status).toBe(200);
      expect(drawn.headers.get("content-type")).toBe(type);
      const api = await callHosted(SELF, "POST", path, { key: apiKey, body: input });
      expect(api.status).toBe(200);
      const [mine, theirs] = [new Uint8Array(await drawn.arrayBuffer()), new Uint8Array(await api.arrayBuffer())];
      expect(mine.byteLength).toBeGreaterThan(100);
      expect(mine).toEqual(theirs);
      if (list === "qrcodes") expect(drawn.headers.get("x-qr-version")).toBe(api.headers.get("x-qr-version"));
    }
  });

  it("offers the drawing as a download named after the list and the item's place", async () => {
    const user = await account();
    const saved = await save(user.cookie, "avatars", { input: { seed: "dl", format: "svg" } });
    const { item } = await saved.json<{ item: Item }>();
    const drawn = await image(user.cookie, "avatars", item.id, "?download");
    expect(drawn.headers.get("content-disposition")).toBe('attachment; filename="avatar-1.svg"');
    expect(await drawn.text()).toContain("<svg");
  });

  it("stops drawing past the account's throttle with a 429 that says when to retry", async () => {
    const user = await account();
    const saved = await save(user.cookie, "avatars", { input: { seed: "busy" } });
    const { item } = await saved.json<{ item: Item }>();
    // The window in force and the next are full, so a minute's boundary between these
    // statements cannot open a fresh one.
    const bucket = `${SAVED_RENDER_RULE.name}:${await sha256Hex(user.userId)}`;
    const now = Date.now();
    const current = now - (now % SAVED_RENDER_RULE.windowMs);
    for (const windowStart of [current, current + SAVED_RENDER_RULE.windowMs]) {
      await env.DB.prepare(
        `INSERT INTO rate_limit_windows (bucket, window_start, hits) VALUES (?, ?, ?)
         ON CONFLICT (bucket, window_start) DO UPDATE SET hits = excluded.hits`,
      )
        .bind(bucket, windowStart, SAVED_RENDER_RULE.limit)
        .run();
    }
    const refused = await image(user.cookie, "avatars", item.id);
    await expectProblem(refused, 429, "too-many-requests");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("saved lists: the pages", () => {
  const page = (path: string, cookie?: string) =>
    SELF.fetch(`${BASE}${path}`, { headers: cookie ? { cookie } : {}, redirect: "manual" });

  it("offers a signed-out visitor 'Sign in to save' on the Avatars and QR Code demos, and no list", async () => {
    for (const path of ["/avatar/live-demo", "/qrcode/live-demo"]) {
      const html = await (await page(path)).text();
      expect(html).toContain("Sign in to save");
      expect(html).not.toContain("Delete list");
    }
    // A demo whose answers are not images has nothing to save.
    expect(await (await page("/urlshortener/live-demo")).text()).not.toContain("Sign in to save");
  });

  it("shows a signed-in account its demo's list on the demo, and both lists on the dashboard", async () => {
    const user = await account();
    const avatarDemo = await (await page("/avatar/live-demo", user.cookie)).text();
    expect(avatarDemo).toContain("Saved avatars");
    expect(avatarDemo).not.toContain("Saved QR codes");
    expect(avatarDemo).not.toContain("Sign in to save");
    expect(await (await page("/qrcode/live-demo", user.cookie)).text()).toContain("Saved QR codes");
    const dashboard = await page("/user/dashboard", user.cookie);
    expect(dashboard.status).toBe(200);
    const html = await dashboard.text();
    expect(html).toContain("Saved avatars");
    expect(html).toContain("Saved QR codes");
  });
});
