import { describe, expect, it } from "vitest";
import { json, problemResult, type OperationContext } from "~workers/hosted/definition";
import { testHostedServices } from "../../../tests/fakes/services";
import { fakeResolver } from "../../../tests/fakes/network";
import type { HostedServices } from "../services";
import { runHandler } from "./run";

const account = { userId: "usr_run", keyId: "key_run", planId: "standard" as const };

function contextWith(services: HostedServices) {
  return {
    request: new Request("https://portico.test/api/v1/test?x=1"),
    requestId: "req_run",
    account,
    services,
    publicHosts: ["portico.test"],
    waitUntil: () => undefined,
  };
}

const fetchesUrl = (url: string) => ({
  handler: async (_input: unknown, ctx: OperationContext) => {
    const fetched = await ctx.fetchUrl(url);
    return json({ size: fetched.bytes.byteLength, type: fetched.contentType });
  },
});

const dns = { "images.example.net": ["93.184.215.14"] };

describe("gateway step: run the operation", () => {
  it("hands the handler its input and a context for this call, with no network reached", async () => {
    let seen: OperationContext | undefined;
    const operation = {
      handler: async (input: unknown, ctx: OperationContext) => {
        seen = ctx;
        return json({ echoed: input });
      },
    };
    const run = await runHandler(operation, { text: "hi" }, contextWith(testHostedServices()));
    expect(run).toEqual({ result: json({ echoed: { text: "hi" } }), reachedOut: false });
    expect(seen?.account).toEqual(account);
    expect(seen?.requestId).toBe("req_run");
    expect(seen?.origin).toBe("https://portico.test");
    expect(seen?.publicHosts).toEqual(["portico.test"]);
    // A handler gets capabilities, never the bindings or the configuration.
    expect(seen).not.toHaveProperty("env");
    expect(seen).not.toHaveProperty("config");
  });

  it("marks a call whose handler fetched a caller's URL as having reached out", async () => {
    const services = testHostedServices({
      dns,
      routes: {
        "https://images.example.net/x.png": () => new Response("png!", { headers: { "content-type": "image/png" } }),
      },
    });
    const run = await runHandler(fetchesUrl("https://images.example.net/x.png"), {}, contextWith(services));
    expect(run).toEqual({ result: json({ size: 4, type: "image/png" }), reachedOut: true });
  });

  it("answers a URL the guard refuses as the caller's input error, not reached out when nothing was looked up", async () => {
    const run = await runHandler(fetchesUrl("http://127.0.0.1/admin"), {}, contextWith(testHostedServices()));
    expect(run.reachedOut).toBe(false);
    expect(run.result).toEqual({
      kind: "problem",
      type: "invalid-input",
      detail: "That URL points at a private address.",
    });
  });

  it("counts a refusal made after a name lookup as having reached out", async () => {
    const services = testHostedServices({ dns: { "rebind.example": ["10.0.0.1"] } });
    const run = await runHandler(fetchesUrl("https://rebind.example/"), {}, contextWith(services));
    expect(run.reachedOut).toBe(true);
    expect(run.result).toMatchObject({ kind: "problem", type: "invalid-input" });
  });

  it("passes a handler's own problem through unchanged", async () => {
    const operation = { handler: async () => problemResult("conflict", "taken", { errors: { alias: "taken" } }) };
    const run = await runHandler(operation, {}, contextWith(testHostedServices()));
    expect(run.result).toEqual(problemResult("conflict", "taken", { errors: { alias: "taken" } }));
  });

  it("gives up on a handler at its time limit and aborts its outbound fetch", async () => {
    let upstreamSignal: AbortSignal | undefined;
    const silent = ((_input: RequestInfo | URL, init?: RequestInit) => {
      upstreamSignal = init?.signal ?? undefined;
      return new Promise<Response>((_, reject) =>
        init?.signal?.addEventListener("abort", () => reject(init.signal?.reason)),
      );
    }) as typeof fetch;
    const services = { ...testHostedServices(), dns: fakeResolver(dns), upstream: silent };
    await expect(
      runHandler(fetchesUrl("https://images.example.net/slow.png"), {}, contextWith(services), 50),
    ).rejects.toThrow("handler exceeded 50 ms");
    expect(upstreamSignal?.aborted).toBe(true);
  });

  it("lets any other failure through, for the gateway to answer as its own", async () => {
    const operation = {
      handler: async (): Promise<never> => {
        throw new TypeError("engine bug");
      },
    };
    await expect(runHandler(operation, {}, contextWith(testHostedServices()))).rejects.toThrow("engine bug");
  });
});
