/**
 * The main Worker's entry and the webhook Worker (issue #10, points 5 and 9): bodies bounded
 * before anything reads them, state-changing requests from other sites refused, and the
 * headers that tell the browser how to treat each answer.
 */
import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "~workers/app";
import { FORM_BODY_LIMIT, WEBHOOK_BODY_LIMIT } from "~workers/http/request-body";
import { callHosted, createAccountWithKey, randomClientAddress, randomEmail, sessionCookieFor } from "../factories";

const BASE = "https://portico.test";
const ELSEWHERE = "https://elsewhere.example";
const PROBLEM_BASE = "https://portico.dev/problems/";

function postForm(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return SELF.fetch(`${BASE}${path}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "cf-connecting-ip": randomClientAddress(),
      ...headers,
    },
    redirect: "manual",
  });
}

function postJson(path: string, body: unknown, headers: Record<string, string> = {}) {
  return SELF.fetch(`${BASE}${path}`, {
    method: "POST",
    body: JSON.stringify(body),
    headers: { "content-type": "application/json", "cf-connecting-ip": randomClientAddress(), ...headers },
    redirect: "manual",
  });
}

/** A body of `total` bytes sent without Content-Length, counting how much of it was pulled. */
function streamedBody(total: number, chunk = 16 * 1024) {
  const counter = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (counter.pulled >= total) return controller.close();
        const size = Math.min(chunk, total - counter.pulled);
        counter.pulled += size;
        controller.enqueue(new Uint8Array(size).fill(0x61));
      },
      cancel() {
        counter.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, counter };
}

async function expectProblem(response: Response, status: number, type: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  const body = await response.json<{ type: string; status: number; requestId: string }>();
  expect(body.type).toBe(PROBLEM_BASE + type);
  expect(body.status).toBe(status);
  expect(body.requestId).toBe(response.headers.get("x-request-id"));
  return body;
}

async function keysOf(email: string): Promise<number> {
  const row = await env.DB.prepare(
    "SELECT COUNT(*) AS n FROM api_keys JOIN users ON users.id = api_keys.user_id WHERE users.email = ?",
  )
    .bind(email)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

describe("state-changing requests from another site", () => {
  it("refuses a page action whose Origin is another site, with a page saying why, before the action runs", async () => {
    const response = await postForm(
      "/user/authenticate",
      { intent: "login", email: randomEmail("csrf"), password: "whatever it is 1" },
      { origin: ELSEWHERE },
    );
    expect(response.status).toBe(403);
    expect(response.headers.get("content-type")).toContain("text/html");
    expect(response.headers.get("set-cookie")).toBeNull();
    expect(await response.text()).toContain("came from another site");
  });

  it("refuses a page action a sibling subdomain sends (Sec-Fetch-Site: same-site)", async () => {
    const response = await postForm(
      "/user/authenticate.data",
      { intent: "login", email: randomEmail("csrf"), password: "whatever it is 1" },
      { "sec-fetch-site": "same-site", origin: "https://tools.portico.test" },
    );
    expect(response.status).toBe(403);
    // The app's own submissions read the words of a 4xx answer (app/root.tsx shows them).
    expect(response.headers.get("content-type")).toContain("text/plain");
    expect(await response.text()).toContain("another site");
  });

  it("refuses an opaque Origin (a sandboxed frame) on a page action", async () => {
    const response = await postForm("/user/settings", { intent: "delete" }, { origin: "null" });
    expect(response.status).toBe(403);
  });

  it("refuses a cookie-authenticated /api call marked cross-site, and makes no key", async () => {
    const email = randomEmail("csrf");
    const cookie = await sessionCookieFor(SELF, email);
    const before = await keysOf(email);
    const response = await postJson("/api/user/keys", { name: "planted" }, { cookie, "sec-fetch-site": "cross-site" });
    const body = await expectProblem(response, 403, "forbidden");
    expect(JSON.stringify(body)).toContain("cross-site");
    expect(await keysOf(email)).toBe(before);
  });

  it("refuses a login through the API from another site (login CSRF), setting no cookie", async () => {
    const response = await postJson(
      "/api/users/login",
      { email: randomEmail("csrf"), password: "whatever it is 1" },
      { origin: ELSEWHERE, "content-type": "text/plain" },
    );
    await expectProblem(response, 403, "forbidden");
    expect(response.headers.get("set-cookie")).toBeNull();
  });

  it("lets the same origin through, on the API and on pages", async () => {
    const email = randomEmail("same");
    const cookie = await sessionCookieFor(SELF, email);
    const created = await postJson(
      "/api/user/keys",
      { name: "mine" },
      { cookie, origin: BASE, "sec-fetch-site": "same-origin" },
    );
    expect(created.status).toBe(201);
    // The action runs and answers its own way: wrong credentials, not a refusal.
    const page = await postForm(
      "/user/authenticate",
      { intent: "login", email: randomEmail("nobody"), password: "whatever it is 1" },
      { origin: BASE, "sec-fetch-site": "same-origin" },
    );
    expect(page.status).toBe(401);
  });

  it("lets through a client that is no browser (neither Origin nor Sec-Fetch-Site)", async () => {
    const email = randomEmail("server");
    const cookie = await sessionCookieFor(SELF, email);
    expect((await postJson("/api/user/keys", { name: "from a script" }, { cookie })).status).toBe(201);
  });

  it("lets API-key calls to the hosted APIs come from any site (they are CORS APIs)", async () => {
    const { key } = await createAccountWithKey(env.DB);
    const response = await SELF.fetch(`${BASE}/api/v1/avatar`, {
      method: "POST",
      body: JSON.stringify({ seed: "someone@example.com", format: "svg" }),
      headers: {
        "content-type": "application/json",
        "x-api-key": key,
        origin: ELSEWHERE,
        "sec-fetch-site": "cross-site",
      },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("image/svg+xml");
  });

  it("lets a cross-site GET through: the OIDC callback comes from the provider's page", async () => {
    const response = await SELF.fetch(`${BASE}/api/auth/oidc/callback?code=abc&state=def`, {
      headers: { "sec-fetch-site": "cross-site", origin: ELSEWHERE },
      redirect: "manual",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/user/authenticate?error=failed");
  });
});

describe("bodies are bounded before they are read", () => {
  const oversized = "a".repeat(FORM_BODY_LIMIT + 1);

  it("answers a page action over 64 KiB with 413 and a page saying so", async () => {
    const response = await postForm(
      "/user/authenticate",
      { intent: "login", email: randomEmail("big"), password: oversized },
      { origin: BASE },
    );
    expect(response.status).toBe(413);
    expect(response.headers.get("content-type")).toContain("text/html");
    expect(await response.text()).toContain("That form was too large");
  });

  it("answers the app's own oversized submission (`.data`) with 413 and words to show", async () => {
    const response = await postForm("/user/settings.data", { intent: "profile", name: oversized }, { origin: BASE });
    expect(response.status).toBe(413);
    expect(await response.text()).toContain("64 KiB");
  });

  it("cuts a page action streamed without Content-Length at the cap, without reading the rest", async () => {
    const { stream, counter } = streamedBody(8 * 1024 * 1024);
    const response = await SELF.fetch(`${BASE}/user/authenticate`, {
      method: "POST",
      body: stream,
      headers: { "content-type": "application/x-www-form-urlencoded", origin: BASE },
    });
    expect(response.status).toBe(413);
    // Read a little past the cap (to keep the connection usable), never the whole 8 MiB.
    expect(counter.pulled).toBeLessThan(2 * 1024 * 1024);
  });

  it("answers an oversized payment call with problem+json 413, before its session is checked", async () => {
    const response = await postJson("/api/payments/paypal/generate-session", {
      payment_type: "standard",
      padding: oversized,
    });
    await expectProblem(response, 413, "body-too-large");
  });

  it("cuts an /api call streamed without Content-Length at the cap", async () => {
    const { stream, counter } = streamedBody(8 * 1024 * 1024);
    const response = await SELF.fetch(`${BASE}/api/payments/cashfree/generate-session`, {
      method: "POST",
      body: stream,
      headers: { "content-type": "application/json" },
    });
    await expectProblem(response, 413, "body-too-large");
    expect(counter.pulled).toBeLessThan(2 * 1024 * 1024);
  });

  it("hands a body under the cap on whole: a page action reads it", async () => {
    const response = await postForm(
      "/user/authenticate",
      { intent: "login", email: randomEmail("nobody"), password: "b".repeat(FORM_BODY_LIMIT - 200) },
      { origin: BASE },
    );
    // Read and judged by the action (a password that long is not valid input), not refused.
    expect([400, 401]).toContain(response.status);
  });

  it("leaves the gateway's own per-operation limits to the gateway (the QR code's is 512 KiB)", async () => {
    const { key } = await createAccountWithKey(env.DB, { planId: "premium" });
    const response = await callHosted(SELF, "POST", "/api/v1/qrcode", {
      key,
      body: { text: "q".repeat(100 * 1024) },
    });
    expect(response.status).not.toBe(413);
    expect(response.headers.get("content-type")).not.toContain("text/html");
  });

  describe("the webhook Worker", () => {
    const webhooks = env.WEBHOOKS as Fetcher;

    it("answers an event over 256 KiB with problem+json 413, whichever provider it claims", async () => {
      for (const provider of ["cashfree", "paypal"]) {
        const response = await webhooks.fetch(`https://webhooks.portico.test/${provider}`, {
          method: "POST",
          body: "x".repeat(WEBHOOK_BODY_LIMIT + 1),
          headers: { "content-type": "application/json" },
        });
        expect(response.status, provider).toBe(413);
        expect(response.headers.get("content-type")).toBe("application/problem+json");
        expect((await response.json<{ type: string }>()).type).toBe(`${PROBLEM_BASE}body-too-large`);
      }
    });

    it("cuts an event streamed without Content-Length at 256 KiB", async () => {
      const { stream, counter } = streamedBody(8 * 1024 * 1024);
      const response = await webhooks.fetch("https://webhooks.portico.test/cashfree", { method: "POST", body: stream });
      expect(response.status).toBe(413);
      expect(counter.pulled).toBeLessThan(3 * 1024 * 1024);
    });

    it("still reads an event under the cap (and judges its signature)", async () => {
      const response = await webhooks.fetch("https://webhooks.portico.test/cashfree", {
        method: "POST",
        body: JSON.stringify({ type: "PAYMENT_SUCCESS_WEBHOOK", padding: "p".repeat(100 * 1024) }),
        headers: { "content-type": "application/json", "x-webhook-timestamp": String(Date.now()) },
      });
      expect(response.status).toBe(401);
    });
  });
});

describe("a refusal does not leave the body behind on the connection", () => {
  // workerd closes a keep-alive connection whose request body was left unread or cancelled;
  // a client that already sent its next request on it gets no answer (under `vite dev`, the
  // dev server's HTML 500). So a refused body is read to its end (up to 1 MiB) and dropped.
  it("reads away the body of a page action refused as cross-site", async () => {
    const { stream, counter } = streamedBody(40 * 1024);
    const response = await SELF.fetch(`${BASE}/user/authenticate`, {
      method: "POST",
      body: stream,
      headers: { "content-type": "application/x-www-form-urlencoded", origin: ELSEWHERE },
    });
    expect(response.status).toBe(403);
    expect(counter.pulled).toBe(40 * 1024);
  });

  it("reads away the body of a hosted call the gateway refuses before reading it (an unknown key)", async () => {
    const { stream, counter } = streamedBody(40 * 1024);
    const response = await SELF.fetch(`${BASE}/api/v1/numtoword`, {
      method: "POST",
      body: stream,
      headers: { "content-type": "application/json", "x-api-key": "pk_live_nobodyhasthiskey" },
    });
    expect(response.status).toBe(401);
    expect(counter.pulled).toBe(40 * 1024);
    expect(counter.cancelled).toBe(false);
  });
});

describe("the headers of each answer", () => {
  function policyOf(response: Response): string {
    return response.headers.get("content-security-policy") ?? "";
  }

  function nonceOf(response: Response): string {
    const nonce = /'nonce-([^']+)'/.exec(policyOf(response))?.[1];
    if (!nonce) throw new Error(`no nonce in ${policyOf(response)}`);
    return nonce;
  }

  /** The attributes of every script that runs: JSON-LD is data, which no browser executes. */
  function runnableScripts(html: string): string[] {
    return [...html.matchAll(/<script\b([^>]*)>/g)]
      .map((match) => match[1] ?? "")
      .filter((attributes) => !attributes.includes('type="application/ld+json"'));
  }

  it("gives each page a policy with a nonce of its own, and every script the page runs carries it", async () => {
    const nonces = new Set<string>();
    for (const path of ["/", "/", "/docs", "/docs/api/qrcode", "/user/subscription?country=US", "/no-such-page"]) {
      const response = await SELF.fetch(`${BASE}${path}`);
      const nonce = nonceOf(response);
      nonces.add(nonce);
      const policy = policyOf(response);
      expect(policy).toMatch(/script-src 'self' 'nonce-/);
      expect(policy).not.toContain("unsafe-inline' 'nonce");
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).toContain("object-src 'none'");
      expect(policy).toContain("base-uri 'none'");
      const scripts = runnableScripts(await response.text());
      // The colour-mode bootstrap, React Router's context and its module loader at least.
      expect(scripts.length, path).toBeGreaterThanOrEqual(3);
      for (const attributes of scripts) expect(attributes, path).toContain(`nonce="${nonce}"`);
    }
    expect(nonces.size).toBe(6);
  });

  it("lets the payment SDKs' hosts in only on the pages that load them", async () => {
    const cookie = await sessionCookieFor(SELF, randomEmail("payer"));
    const pages: [string, string | undefined][] = [
      ["/user/subscription?country=US", undefined],
      ["/user/subscription?country=IN", undefined],
      ["/user/transactions", cookie],
    ];
    for (const [path, withCookie] of pages) {
      const response = await SELF.fetch(`${BASE}${path}`, { headers: withCookie ? { cookie: withCookie } : {} });
      expect(response.status, path).toBe(200);
      const policy = policyOf(response);
      expect(policy, path).toMatch(/script-src [^;]*https:\/\/www\.paypal\.com/);
      expect(policy, path).toMatch(/script-src [^;]*https:\/\/\*\.paypalobjects\.com/);
      expect(policy, path).toMatch(/script-src [^;]*https:\/\/sdk\.cashfree\.com/);
      expect(policy, path).toMatch(/frame-src [^;]*https:\/\/\*\.paypal\.com/);
      expect(policy, path).toMatch(/connect-src [^;]*https:\/\/api\.cashfree\.com/);
    }
    for (const path of ["/", "/docs", "/user/authenticate", "/status/payment/pay_missing"]) {
      const policy = policyOf(await SELF.fetch(`${BASE}${path}`));
      expect(policy, path).toContain("script-src 'self'");
      expect(policy, path).not.toContain("paypal");
      expect(policy, path).not.toContain("cashfree");
    }
  });

  it("sends HSTS from production only", async () => {
    const call = async (appEnv: Env["APP_ENV"]) => {
      const ctx = createExecutionContext();
      const response = await worker.fetch(
        new Request(`${BASE}/openapi.json`) as Request<unknown, IncomingRequestCfProperties>,
        { ...env, APP_ENV: appEnv },
        ctx,
      );
      await waitOnExecutionContext(ctx);
      return response;
    };
    expect((await call("production")).headers.get("strict-transport-security")).toBe(
      "max-age=63072000; includeSubDomains",
    );
    expect((await call("development")).headers.get("strict-transport-security")).toBeNull();
    expect((await SELF.fetch(`${BASE}/`)).headers.get("strict-transport-security")).toBeNull();
  });

  it("marks cookies Secure everywhere but plain http to this machine", async () => {
    const cookieAt = async (origin: string) =>
      (await SELF.fetch(`${origin}/api/auth/oidc/start`, { redirect: "manual" })).headers.get("set-cookie") ?? "";
    for (const origin of [BASE, "http://portico.test", "http://portico.test:8787"]) {
      expect(await cookieAt(origin), origin).toMatch(/; Secure/);
    }
    for (const origin of ["http://localhost:5173", "http://127.0.0.1:4173"]) {
      const cookie = await cookieAt(origin);
      expect(cookie, origin).toContain("HttpOnly");
      expect(cookie, origin).not.toMatch(/; Secure/);
    }
  });

  async function expectInert(response: Response, label: string) {
    expect(response.headers.get("x-content-type-options"), label).toBe("nosniff");
    expect(response.headers.get("content-security-policy"), label).toBe("default-src 'none'; frame-ancestors 'none'");
  }

  it("marks /api answers, hosted SVG outputs and short links as data nothing may run in", async () => {
    await expectInert(await SELF.fetch(`${BASE}/api/admin/sidemenus`), "/api JSON");
    await expectInert(await SELF.fetch(`${BASE}/api/no/such/call`), "/api problem");
    const { key } = await createAccountWithKey(env.DB);
    const svg = await callHosted(SELF, "GET", "/api/v1/avatar?seed=ada%40example.com&format=svg", { key });
    expect(svg.status).toBe(200);
    expect(svg.headers.get("content-type")).toContain("image/svg+xml");
    await expectInert(svg, "avatar SVG");
    const link = await SELF.fetch(`${BASE}/s/nosuchalias`, { redirect: "manual" });
    expect(link.status).toBe(302);
    await expectInert(link, "short link");
  });
});
