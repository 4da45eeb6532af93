import { describe, expect, it } from "vitest";
import { withVoice } from "./speech-voice-picker";

describe("withVoice (the live demo's voice picker)", () => {
  it("writes the voice into the JSON input and drops language, which the voice decides", () => {
    const next = withVoice('{"input":"Hi","language":"en-US","speed":1}', "fr-female");
    expect(JSON.parse(next!)).toEqual({ input: "Hi", speed: 1, voice: "fr-female" });
  });

  it("answers null for an input that is not a JSON object, so the page asks to fix it", () => {
    expect(withVoice("{not json", "fr-female")).toBeNull();
    expect(withVoice("[1, 2]", "fr-female")).toBeNull();
    expect(JSON.parse(withVoice("", "luna")!)).toEqual({ voice: "luna" });
  });
});
