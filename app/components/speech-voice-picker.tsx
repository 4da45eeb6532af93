/**
 * Text to Audio's live demo: a voice list read from `GET /api/v1/text-to-speech/voices` (the
 * engine in use decides which voices exist: meSpeak's offline, Aura's and MeloTTS's in
 * production), grouped by language, whose choice is written into the JSON input's `voice`.
 * The list is loaded only when asked: reading it is a call against the caller's plan.
 */
import { useState } from "react";

interface Voice {
  id: string;
  name: string;
  language: string;
  gender: "female" | "male" | null;
  /** Where fewer than the engine's (MeloTTS's voices: mp3 only). */
  formats?: string[];
}

interface VoiceList {
  engine: string;
  formats: string[];
  voices: Voice[];
}

/**
 * The JSON input with `voice` set (and `language` dropped: the voice decides it), or null when it
 * does not parse. Where the voice answers fewer formats than its engine and the input asks one
 * it does not, the format asked becomes the voice's first, so the demo's call is not a 422.
 */
export function withVoice(inputText: string, voice: string, formats?: readonly string[]): string | null {
  try {
    const parsed: unknown = JSON.parse(inputText || "{}");
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return null;
    const { language: _language, ...rest } = parsed as Record<string, unknown>;
    if (formats && formats.length > 0) {
      for (const key of ["response_format", "format"]) {
        if (typeof rest[key] === "string" && !formats.includes(rest[key])) rest[key] = formats[0];
      }
    }
    return JSON.stringify({ ...rest, voice }, null, 2);
  } catch {
    return null;
  }
}

export function SpeechVoicePicker({
  apiKey,
  inputText,
  onInput,
}: {
  apiKey: string;
  inputText: string;
  onInput: (text: string) => void;
}) {
  const [list, setList] = useState<VoiceList | null>(null);
  const [message, setMessage] = useState("");
  const [loading, setLoading] = useState(false);

  const load = async () => {
    setLoading(true);
    setMessage("");
    try {
      const response = await fetch("/api/v1/text-to-speech/voices", { headers: { "x-api-key": apiKey } });
      const body = (await response.json()) as VoiceList & { detail?: string };
      if (!response.ok) setMessage(body.detail ?? `The voices could not be read (status ${response.status}).`);
      else setList(body);
    } catch {
      setMessage("The voices could not be read. Check your connection and try again.");
    } finally {
      setLoading(false);
    }
  };

  const choose = (voice: string) => {
    const next = withVoice(inputText, voice, list?.voices.find((candidate) => candidate.id === voice)?.formats);
    if (next === null) setMessage("Fix the JSON input first: the voice is written into it.");
    else {
      setMessage("");
      onInput(next);
    }
  };

  const languages = list ? [...new Set(list.voices.map((voice) => voice.language))] : [];

  return (
    <div className="text-sm">
      {!list ? (
        <button
          type="button"
          onClick={load}
          disabled={loading || !apiKey}
          className="rounded-md border border-slate-300 px-3 py-1.5 hover:bg-slate-50 disabled:opacity-50 dark:border-slate-700 dark:hover:bg-slate-800"
        >
          {loading ? "Reading the voices…" : "Choose a voice (reads the voice list: one call)"}
        </button>
      ) : (
        <>
          <label htmlFor="demo-voice" className="block font-medium">
            Voice ({list.engine}; formats {list.formats.join(", ")})
          </label>
          <select
            id="demo-voice"
            defaultValue=""
            onChange={(event) => event.target.value && choose(event.target.value)}
            className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2 dark:border-slate-700 dark:bg-slate-900"
          >
            <option value="">Pick one to write it into the input…</option>
            {languages.map((language) => (
              <optgroup key={language} label={language}>
                {list.voices
                  .filter((voice) => voice.language === language)
                  .map((voice) => (
                    <option key={voice.id} value={voice.id}>
                      {voice.name}
                      {voice.gender && !new RegExp(`\\b${voice.gender}\\b`).test(voice.name)
                        ? ` (${voice.gender})`
                        : ""}
                      {voice.formats ? ` — ${voice.formats.join(", ")} only` : ""}
                    </option>
                  ))}
              </optgroup>
            ))}
          </select>
        </>
      )}
      {message && (
        <p role="alert" className="mt-1 text-red-600">
          {message}
        </p>
      )}
    </div>
  );
}
