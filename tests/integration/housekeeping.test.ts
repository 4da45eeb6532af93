import { createScheduledController, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "~workers/app";
import { HOURLY_USAGE_KEPT_MS, HOUR_MS, utcHourStart } from "~workers/platform/usage";
import { createAccountWithKey, randomSuffix } from "../factories";

describe("daily housekeeping", () => {
  it("removes expired sessions and throttle windows older than a day, and keeps the rest", async () => {
    const now = Date.now();
    const { userId } = await createAccountWithKey(env.DB);
    const live = `ses_live_${crypto.randomUUID()}`;
    const dead = `ses_dead_${crypto.randomUUID()}`;
    await env.DB.batch([
      env.DB.prepare("INSERT INTO sessions (id, user_id, version, created_at, expires_at) VALUES (?, ?, 1, ?, ?)").bind(
        live,
        userId,
        now,
        now + 60_000,
      ),
      env.DB.prepare("INSERT INTO sessions (id, user_id, version, created_at, expires_at) VALUES (?, ?, 1, ?, ?)").bind(
        dead,
        userId,
        now - 90_000,
        now - 1,
      ),
      env.DB.prepare("INSERT INTO rate_limit_windows (bucket, window_start, hits) VALUES (?, ?, 1)").bind(
        `old:${dead}`,
        now - 2 * 86_400_000,
      ),
      env.DB.prepare("INSERT INTO rate_limit_windows (bucket, window_start, hits) VALUES (?, ?, 1)").bind(
        `new:${live}`,
        now - 60_000,
      ),
    ]);
    await worker.scheduled(createScheduledController({ scheduledTime: now, cron: "17 3 * * *" }), env);
    const sessions = await env.DB.prepare("SELECT id FROM sessions WHERE id IN (?, ?)")
      .bind(live, dead)
      .all<{ id: string }>();
    expect(sessions.results.map((row) => row.id)).toEqual([live]);
    const windows = await env.DB.prepare("SELECT bucket FROM rate_limit_windows WHERE bucket IN (?, ?)")
      .bind(`old:${dead}`, `new:${live}`)
      .all<{ bucket: string }>();
    expect(windows.results.map((row) => row.bucket)).toEqual([`new:${live}`]);
  });

  it("removes hourly usage rollups older than the benchmarking week's margin, and keeps newer ones", async () => {
    const now = Date.now();
    const slug = `api-${randomSuffix()}`;
    const old = utcHourStart(now - HOURLY_USAGE_KEPT_MS) - HOUR_MS;
    const recent = utcHourStart(now - 7 * 24 * HOUR_MS);
    const statements = [old, recent].flatMap((hour) => [
      env.DB.prepare(
        "INSERT INTO usage_api_hourly (hour_start, api_slug, calls, errors, total_latency_ms, max_latency_ms) VALUES (?, ?, 1, 0, 5, 5)",
      ).bind(hour, slug),
      env.DB.prepare(
        "INSERT INTO usage_latency_hourly (hour_start, api_slug, upper_ms, calls) VALUES (?, ?, 5, 1)",
      ).bind(hour, slug),
    ]);
    await env.DB.batch(statements);
    await worker.scheduled(createScheduledController({ scheduledTime: now, cron: "17 3 * * *" }), env);
    for (const table of ["usage_api_hourly", "usage_latency_hourly"]) {
      const hours = await env.DB.prepare(`SELECT hour_start FROM ${table} WHERE api_slug = ?`)
        .bind(slug)
        .all<{ hour_start: number }>();
      expect(hours.results.map((row) => row.hour_start)).toEqual([recent]);
    }
  });
});
