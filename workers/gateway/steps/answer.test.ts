import { describe, expect, it } from "vitest";
import { binary, json, problemResult, type HandlerResult } from "~workers/hosted/definition";
import { problemBody } from "~workers/http/problem";
import { memoryUsage, scriptedMeter } from "../../../tests/fakes/services";
import type { MeterPolicy } from "../meter";
import { countsAgainstMonth, settleCall, toResponse, type Outcome } from "./answer";
import type { Taken } from "./meter-call";
import type { Refusal } from "./refusal";

const LIMITS = { "X-RateLimit-Remaining": "9" };
const render = (refusal: Refusal) =>
  new Response(JSON.stringify(problemBody(refusal.type, refusal.detail, "req_answer", refusal.extensions)), {
    status: 422,
    headers: { "content-type": "application/problem+json", ...refusal.headers },
  });
const respond = (result: HandlerResult, asJson = false, successStatus?: 200 | 201) =>
  toResponse({ successStatus }, result, LIMITS, { asJson, render });

describe("gateway step: answer (the response)", () => {
  it("answers JSON with the rate-limit headers, the handler's status or the operation's", async () => {
    const created = respond(json({ id: 1 }), false, 201);
    expect(created.status).toBe(201);
    expect(created.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(created.headers.get("x-ratelimit-remaining")).toBe("9");
    expect(await created.json()).toEqual({ id: 1 });
    expect(respond(json({}, 202), false, 201).status).toBe(202);
    expect(respond(json({})).status).toBe(200);
  });

  it("answers bytes with their type and length, and the handler's own headers", async () => {
    const response = respond(binary(new Uint8Array([1, 2, 3]), "image/png", { "cache-control": "no-store" }));
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(response.headers.get("content-length")).toBe("3");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("x-ratelimit-remaining")).toBe("9");
    expect([...new Uint8Array(await response.arrayBuffer())]).toEqual([1, 2, 3]);
  });

  it("wraps bytes in JSON for a caller that asks ?as=json", async () => {
    const response = respond(binary("<svg/>", "image/svg+xml"), true);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await response.json()).toEqual({ data: btoa("<svg/>"), mimeType: "image/svg+xml", size: 6 });
  });

  it("drops a file's Content-Disposition from the ?as=json wrapper, which is not that file, and keeps the handler's other headers", () => {
    const file = binary(new Uint8Array([37, 80, 68, 70]), "application/pdf", {
      "Content-Disposition": 'inline; filename="document.pdf"',
      "X-Engine": "pdfmake",
    });
    const wrapped = respond(file, true);
    expect(wrapped.headers.get("content-disposition")).toBeNull();
    expect(wrapped.headers.get("x-engine")).toBe("pdfmake");
    expect(respond(file).headers.get("content-disposition")).toBe('inline; filename="document.pdf"');
  });

  it("answers a redirect with its location and the headers", () => {
    const response = respond({ kind: "redirect", location: "https://example.com/", status: 302 });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("https://example.com/");
    expect(response.headers.get("x-ratelimit-remaining")).toBe("9");
  });

  it("renders a handler's problem as problem+json, keeping its extensions and adding the headers", async () => {
    const response = respond(problemResult("invalid-input", "hex: not a colour", { errors: { hex: "not a colour" } }));
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(response.headers.get("x-ratelimit-remaining")).toBe("9");
    expect(await response.json()).toMatchObject({ detail: "hex: not a colour", errors: { hex: "not a colour" } });
  });
});

describe("gateway step: answer (what counts)", () => {
  const outcome = (status: number, handlerRan: boolean, reachedOut = false): Outcome => ({
    response: new Response(null, { status }),
    handlerRan,
    reachedOut,
  });

  it.each([
    [200, true, false, true],
    [201, true, false, true],
    [302, true, false, false],
    [422, true, false, false],
    [422, true, true, true],
    [403, true, true, true],
    [502, true, true, false],
    [503, true, false, false],
    [413, false, false, false],
    [422, false, false, false],
  ])("status %i, handler ran %s, reached out %s: counts %s", (status, handlerRan, reachedOut, counts) => {
    expect(countsAgainstMonth(outcome(status, handlerRan, reachedOut))).toBe(counts);
  });

  it("never counts a problem type marked uncounted, even after reaching the network (decision 051)", () => {
    const answered = (status: number, problemType: Outcome["problemType"]): Outcome => ({
      ...outcome(status, true, true),
      problemType,
    });
    for (const [status, type] of [
      [403, "content-private"],
      [404, "content-unavailable"],
      [451, "content-region-locked"],
      [403, "login-required"],
      [429, "upstream-rate-limited"],
      [422, "drm-protected"],
    ] as const) {
      expect(countsAgainstMonth(answered(status, type)), type).toBe(false);
    }
    // A refusal after reaching out whose type is not marked still counts (decision 013).
    expect(countsAgainstMonth(answered(403, "forbidden"))).toBe(true);
    expect(countsAgainstMonth(answered(422, "invalid-input"))).toBe(true);
  });
});

describe("gateway step: answer (after the response)", () => {
  const policy: MeterPolicy = {
    now: 0,
    perSecond: 2,
    monthlyQuota: 200,
    periodStart: Date.UTC(2026, 10, 1),
    periodEnd: Date.UTC(2026, 11, 1),
    freemiumCap: 50,
    bonusGranted: 0,
  };
  const taken: Taken = {
    weight: 1,
    countsFreemium: true,
    bonusSpent: 0,
    burstLimit: 2,
    burstRemaining: 1,
    burstResetSeconds: 0,
    monthlyLimit: 200,
    monthlyRemaining: 150,
    monthlyResetSeconds: 1000,
  };

  function settle(outcome: Outcome) {
    const { meter, asked } = scriptedMeter();
    const usage = memoryUsage();
    const pending: Promise<unknown>[] = [];
    const started = Date.now();
    const response = settleCall(outcome, {
      meter,
      usage,
      policy,
      taken,
      windowSeconds: 2_592_000,
      call: { userId: "usr_answer", keyId: "key_answer", apiSlug: "qrcode", started },
      waitUntil: (promise) => pending.push(promise),
      requestId: "req_answer",
    });
    return { response, asked, usage, done: () => Promise.all(pending), started };
  }

  it("keeps a successful call counted and records it as a call", async () => {
    const response = new Response("ok", { headers: { "X-RateLimit-Remaining": "150" } });
    const settled = settle({ response, handlerRan: true, reachedOut: false });
    await settled.done();
    expect(settled.asked.refunds).toEqual([]);
    expect(settled.response.headers.get("x-ratelimit-remaining")).toBe("150");
    expect(settled.usage.calls).toEqual([
      {
        userId: "usr_answer",
        keyId: "key_answer",
        apiSlug: "qrcode",
        weight: 1,
        success: true,
        latencyMs: expect.any(Number),
        at: settled.started,
      },
    ]);
  });

  it("gives back a call refused before its handler, and shows the count after the refund", async () => {
    const response = new Response("{}", { status: 422, headers: { "X-RateLimit-Remaining": "150" } });
    const settled = settle({ response, handlerRan: false, reachedOut: false });
    expect(settled.response.headers.get("x-ratelimit-remaining")).toBe("151");
    expect(settled.response.headers.get("ratelimit")).toContain('"monthly";r=151;');
    await settled.done();
    expect(settled.asked.refunds).toEqual([
      { periodStart: policy.periodStart, perSecond: policy.perSecond, weight: 1, countsFreemium: true, bonusSpent: 0 },
    ]);
    // Refused calls still show in the rollups, as errors.
    expect(settled.usage.calls.map((call) => call.success)).toEqual([false]);
  });

  it("gives back a failure of ours", async () => {
    const settled = settle({ response: new Response(null, { status: 502 }), handlerRan: true, reachedOut: true });
    await settled.done();
    expect(settled.asked.refunds).toHaveLength(1);
  });

  it("still answers when the refund fails: it is logged, not thrown", async () => {
    const failing = { ...scriptedMeter().meter, refund: () => Promise.reject(new Error("Meter unreachable")) };
    const pending: Promise<unknown>[] = [];
    const response = settleCall(
      { response: new Response(null, { status: 503 }), handlerRan: true, reachedOut: false },
      {
        meter: failing,
        usage: memoryUsage(),
        policy,
        taken,
        windowSeconds: 1,
        call: { userId: "u", keyId: "k", apiSlug: "qrcode", started: Date.now() },
        waitUntil: (promise) => pending.push(promise),
        requestId: "req_answer",
      },
    );
    expect(response.status).toBe(503);
    await expect(Promise.all(pending)).resolves.toBeDefined();
  });
});
