import { createScheduledController, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "~workers/app";
import { bootstrapSnapshot, BOOTSTRAP_KV_KEY, readBootstrap } from "./bootstrap";
import { RDAP_BOOTSTRAP_CRON } from "./job";

describe("the weekly RDAP bootstrap refresh", () => {
  it("runs on its own cron and stores IANA's file (the fake's, locally) in KV", async () => {
    await env.CACHE.delete(BOOTSTRAP_KV_KEY);
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: RDAP_BOOTSTRAP_CRON }), env);
    const stored = await env.CACHE.get<{ services: unknown[]; publication: string }>(BOOTSTRAP_KV_KEY, "json");
    expect(stored?.services).toHaveLength(bootstrapSnapshot().services.length);
    expect(stored?.publication).toBe("2026-05-24T00:00:00Z");
    expect((await readBootstrap(env.CACHE)).publication).toBe("2026-05-24T00:00:00Z");
    await env.CACHE.delete(BOOTSTRAP_KV_KEY);
  });

  it("is not run by the daily housekeeping's trigger", async () => {
    await env.CACHE.delete(BOOTSTRAP_KV_KEY);
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "17 3 * * *" }), env);
    expect(await env.CACHE.get(BOOTSTRAP_KV_KEY)).toBeNull();
  });
});
