import { describe, expect, it } from "vitest";
import { serialQueue } from "./serial";

/** A promise and the function that settles it, so a test decides when a task ends. */
function deferred(): { promise: Promise<void>; resolve: () => void; reject: (error: Error) => void } {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe("serialQueue", () => {
  it("starts a task only after the one before it has ended", async () => {
    const enqueue = serialQueue();
    const log: string[] = [];
    const first = deferred();
    const a = enqueue(async () => {
      log.push("a start");
      await first.promise;
      log.push("a end");
      return "a";
    });
    const b = enqueue(async () => {
      log.push("b start");
      return "b";
    });
    // Let every ready microtask run: b must still wait for a.
    for (let turn = 0; turn < 20; turn++) await Promise.resolve();
    expect(log).toEqual(["a start"]);
    first.resolve();
    expect(await Promise.all([a, b])).toEqual(["a", "b"]);
    expect(log).toEqual(["a start", "a end", "b start"]);
  });

  it("runs the next task after one that failed, and hands each caller its own outcome", async () => {
    const enqueue = serialQueue();
    const failing = deferred();
    const a = enqueue(() => failing.promise);
    const b = enqueue(async () => "b");
    failing.reject(new Error("a failed"));
    await expect(a).rejects.toThrow("a failed");
    await expect(b).resolves.toBe("b");
  });
});
