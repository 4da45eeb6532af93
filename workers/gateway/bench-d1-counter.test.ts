import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { countedEnv, d1Counts } from "./bench-d1-counter";

describe("bench D1 counter", () => {
  it("counts reads, writes and round trips, alone and in a batch, and the statements still work", async () => {
    const counted = countedEnv(env);
    expect(countedEnv(env)).toBe(counted);
    const before = { ...d1Counts };
    const table = `bench_count_${crypto.randomUUID().replaceAll("-", "")}`;
    await counted.DB.prepare(`CREATE TABLE ${table} (n INTEGER)`).run();
    await counted.DB.batch([
      counted.DB.prepare(`INSERT INTO ${table} (n) VALUES (?)`).bind(1),
      counted.DB.prepare(`INSERT INTO ${table} (n) VALUES (?)`).bind(2),
    ]);
    const row = await counted.DB.prepare(`SELECT SUM(n) AS total FROM ${table}`).first<{ total: number }>();
    const total = await counted.DB.prepare(`SELECT SUM(n) AS total FROM ${table}`).first<number>("total");
    await counted.DB.prepare(`DROP TABLE ${table}`).run();
    expect(row?.total).toBe(3);
    expect(total).toBe(3);
    expect({
      reads: d1Counts.reads - before.reads,
      writes: d1Counts.writes - before.writes,
      roundTrips: d1Counts.roundTrips - before.roundTrips,
    }).toEqual({ reads: 2, writes: 4, roundTrips: 5 });
  });
});
