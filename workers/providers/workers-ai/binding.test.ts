import { describe, expect, it } from "vitest";
import { modelFailure, runModel, workersAiErrorCode, type WorkersAiBinding } from "./binding";

const answering = (answer: unknown, delayMs = 0): WorkersAiBinding => ({
  run: () => new Promise((resolve) => setTimeout(() => resolve(answer), delayMs)),
});
const failing = (message: string): WorkersAiBinding => ({ run: () => Promise.reject(new Error(message)) });

describe("Workers AI runs", () => {
  it("answers the model's answer", async () => {
    expect(await runModel(answering({ image: "x" }), "@cf/m", {}, { timeoutMs: 1000, what: "FLUX" })).toEqual({
      ok: true,
      answer: { image: "x" },
    });
  });

  it("gives up at its own time limit, whatever the binding does with signals", async () => {
    const started = Date.now();
    const run = await runModel(
      { run: () => new Promise(() => undefined) },
      "@cf/m",
      {},
      { timeoutMs: 50, what: "Aura" },
    );
    expect(run).toMatchObject({
      ok: false,
      failure: { problem: "engine-failed", detail: "Aura did not answer within 0.05 s." },
    });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("stops at once when the caller's signal aborts", async () => {
    const controller = new AbortController();
    const pending = runModel(
      answering("late", 5_000),
      "@cf/m",
      {},
      { timeoutMs: 10_000, what: "Whisper", signal: controller.signal },
    );
    controller.abort(new Error("another piece failed"));
    expect(await pending).toMatchObject({ ok: false, failure: { problem: "engine-failed" } });
  });

  it.each([
    ["3006: Request is too large", "invalid-input"],
    ["5004: Invalid data type for base64 input: string", "invalid-input"],
    ["3036: You have used up your daily free allocation of 10,000 neurons. Please upgrade", "engine-unavailable"],
    ["3040: No more data centers to forward the request to", "engine-unavailable"],
    ["3007: Request timeout", "engine-failed"],
    ["5007: No such model @cf/x or task", "engine-failed"],
    ["something else entirely", "engine-failed"],
  ])("sorts %j as %s, never passing the platform's message on", async (message, problem) => {
    const run = await runModel(failing(message), "@cf/m", {}, { timeoutMs: 1000, what: "Whisper" });
    expect(run.ok).toBe(false);
    if (run.ok) return;
    expect(run.failure.problem).toBe(problem);
    expect(run.failure.detail).not.toMatch(/upgrade|neurons|data centers|base64/i);
  });

  it("reads the code at the start of a message only", () => {
    expect(workersAiErrorCode(new Error("3036: used up"))).toBe(3036);
    expect(workersAiErrorCode(new Error("failed after 3036 tries"))).toBeNull();
    expect(modelFailure("FLUX", new Error("3040: busy")).extensions).toMatchObject({ retryAfterSeconds: 60 });
  });
});
