import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { UrlInputError } from "~workers/hosted/definition";
import { createAccountWithKey } from "../../tests/factories";
import { testHostedServices } from "../../tests/fakes/services";
import { createOperationContext, type OperationContextOptions } from "./operation-context";

function options(overrides: Partial<OperationContextOptions> = {}): OperationContextOptions {
  return {
    request: new Request("https://portico.test/api/v1/urlshortener"),
    requestId: "req_ctx",
    account: { userId: "usr_ctx", keyId: "key_ctx", planId: "free" },
    services: testHostedServices(),
    publicHosts: ["portico.test"],
    signal: new AbortController().signal,
    waitUntil: () => undefined,
    ...overrides,
  };
}

describe("createOperationContext", () => {
  it("takes the origin from the request unless told", () => {
    expect(createOperationContext(options()).origin).toBe("https://portico.test");
    expect(createOperationContext(options({ origin: "https://portico.dev" })).origin).toBe("https://portico.dev");
  });

  it("fetches a caller's URL through the SSRF guard over the given network", async () => {
    const ctx = createOperationContext(
      options({
        services: testHostedServices({
          dns: { "files.example.org": ["93.184.215.14"] },
          routes: {
            "https://files.example.org/a.txt": () =>
              new Response("hello", { headers: { "content-type": "text/plain" } }),
          },
        }),
      }),
    );
    const fetched = await ctx.fetchUrl("https://files.example.org/a.txt");
    expect(new TextDecoder().decode(fetched.bytes)).toBe("hello");
    expect(fetched.contentType).toBe("text/plain");
    // The fake network lists no route for a private address: reaching it would fail differently.
    await expect(ctx.fetchUrl("http://169.254.169.254/latest/meta-data/")).rejects.toBeInstanceOf(UrlInputError);
  });

  it("stops a caller's fetch when its signal is aborted", async () => {
    const controller = new AbortController();
    let reached: () => void = () => undefined;
    const upstreamCalled = new Promise<void>((resolve) => (reached = resolve));
    // An upstream that never answers: it only ends when its caller gives up.
    const silent = ((_input: RequestInfo | URL, init?: RequestInit) => {
      reached();
      return new Promise<Response>((_, reject) =>
        init?.signal?.addEventListener("abort", () => reject(init.signal?.reason)),
      );
    }) as typeof fetch;
    const ctx = createOperationContext(
      options({
        signal: controller.signal,
        services: { ...testHostedServices({ dns: { "slow.example.org": ["93.184.215.14"] } }), upstream: silent },
      }),
    );
    const fetching = ctx.fetchUrl("https://slow.example.org/");
    await upstreamCalled;
    controller.abort(new Error("time is up"));
    await expect(fetching).rejects.toBeInstanceOf(UrlInputError);
  });

  it("gives a handler the caller's own short links and no one else's", async () => {
    const owner = await createAccountWithKey(env.DB);
    const stranger = await createAccountWithKey(env.DB);
    const alias = `ctx${crypto.randomUUID().slice(0, 8)}`;
    const asOwner = createOperationContext(options({ account: { ...owner, planId: "free" } }));
    const asStranger = createOperationContext(options({ account: { ...stranger, planId: "free" } }));
    const created = await asOwner.shortLinks.create(
      { alias, url: "https://example.com/", expiresAt: null },
      Date.now(),
    );
    expect(created?.alias).toBe(alias);
    expect(await asStranger.shortLinks.find(alias)).toBeNull();
    expect(await asStranger.shortLinks.delete(alias)).toBe(false);
    expect((await asStranger.shortLinks.list(1, 50)).rows.map((row) => row.alias)).not.toContain(alias);
    expect((await asOwner.shortLinks.find(alias))?.url).toBe("https://example.com/");
    expect(await asOwner.shortLinks.delete(alias)).toBe(true);
  });
});
