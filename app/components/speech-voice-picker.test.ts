import { describe, expect, it } from "vitest";
import { withVoice } from "./speech-voice-picker";

describe("withVoice (the live demo's voice picker)", () => {
  it("writes the voice into the JSON input and drops language, which the voice decides", () => {
    const next = withVoice('{"input":"Hi","language":"en-US","speed":1}', "fr-female");
    expect(JSON.parse(next!)).toEqual({ input: "Hi", speed: 1, voice: "fr-female" });
  });

  it("asks a format the voice answers when the input asks one it does not (MeloTTS's voices: mp3 only)", () => {
    const melo = withVoice('{"input":"Salut","response_format":"wav"}', "melotts-fr", ["mp3"]);
    expect(JSON.parse(melo!)).toEqual({ input: "Salut", response_format: "mp3", voice: "melotts-fr" });
    const older = withVoice('{"text":"Salut","format":"flac"}', "melotts-fr", ["mp3"]);
    expect(JSON.parse(older!)).toEqual({ text: "Salut", format: "mp3", voice: "melotts-fr" });
    // A format the voice answers, or none asked, is left as it is.
    expect(JSON.parse(withVoice('{"response_format":"mp3"}', "melotts-fr", ["mp3"])!).response_format).toBe("mp3");
    expect(JSON.parse(withVoice('{"input":"Hi"}', "melotts-fr", ["mp3"])!)).toEqual({
      input: "Hi",
      voice: "melotts-fr",
    });
    expect(JSON.parse(withVoice('{"response_format":"wav"}', "luna")!).response_format).toBe("wav");
  });

  it("answers null for an input that is not a JSON object, so the page asks to fix it", () => {
    expect(withVoice("{not json", "fr-female")).toBeNull();
    expect(withVoice("[1, 2]", "fr-female")).toBeNull();
    expect(JSON.parse(withVoice("", "luna")!)).toEqual({ voice: "luna" });
  });
});
