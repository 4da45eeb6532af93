/**
 * meSpeak's eSpeak (npm `mespeak`, GPL-3: it lives in the engine Worker only, decision 060),
 * driven directly rather than through the package's module-level `meSpeak` object, for two
 * reasons:
 *
 * - The Emscripten runtime it was compiled with never reuses a file descriptor: every file
 *   eSpeak opens takes the next number, and that number is also used as a pointer into the
 *   engine's heap. After ~630 opens (the 80th call of the package's own API, which opens 8
 *   files a call) the descriptors reach data eSpeak wrote there, and a call answers a
 *   truncated WAV ("Bad data: en_dict") and the next throws. The package's recovery never
 *   triggers. So this wrapper counts the opens itself (the runtime's stream table grows by one
 *   per open) and builds a fresh instance, its files copied in, well before the limit.
 * - The package passes text as a command-line argument, which its runtime cuts to Latin-1;
 *   eSpeak is told the text is UTF-8 (`-b 1`), so the argument is given as the text's UTF-8
 *   bytes, one character each. A leading space keeps a text that starts with `-` from being
 *   read as an option.
 *
 * The package's code uses no eval or `new Function` (checked: workerd refuses both, and these
 * tests run it in workerd).
 */
// The package's src/ESpeak.js as an ES module in UTF-8, written by scripts/engine-assets.ts
// (the original's Latin-1 comments stop Vite's bundler).
import ESpeak, { type ESpeakInstance } from "./assets/espeak.js";
import config from "mespeak/src/mespeak_config.json";
import { FEMALE_VARIANT, type MespeakVoiceFile } from "./voices";

const DATA_DIR = "/espeak/espeak-data";
const VOICES_DIR = `${DATA_DIR}/voices`;
const OUTPUT = "wav.wav";

/**
 * Opens one instance may make before it is replaced: about half of what it survives (≈630),
 * so a call with more opens than usual (a first call in a language reads its dictionary and
 * voice too) never reaches the limit. A call opens about 8 files.
 */
export const OPENS_PER_INSTANCE = 320;

/** The most opens one call makes (its voice, variant, dictionary, the data files and the WAV), with room. */
const OPENS_PER_CALL = 24;

/** The voice files, imported on first use (a static table, so the bundler finds each one). */
const VOICE_FILES: Record<string, () => Promise<{ default: MespeakVoiceFile }>> = {
  "en/en-us": () => import("mespeak/voices/en/en-us.json"),
  "en/en": () => import("mespeak/voices/en/en.json"),
  "en/en-sc": () => import("mespeak/voices/en/en-sc.json"),
  ca: () => import("mespeak/voices/ca.json"),
  cs: () => import("mespeak/voices/cs.json"),
  de: () => import("mespeak/voices/de.json"),
  el: () => import("mespeak/voices/el.json"),
  es: () => import("mespeak/voices/es.json"),
  "es-la": () => import("mespeak/voices/es-la.json"),
  fi: () => import("mespeak/voices/fi.json"),
  fr: () => import("mespeak/voices/fr.json"),
  hu: () => import("mespeak/voices/hu.json"),
  it: () => import("mespeak/voices/it.json"),
  lv: () => import("mespeak/voices/lv.json"),
  nl: () => import("mespeak/voices/nl.json"),
  pl: () => import("mespeak/voices/pl.json"),
  pt: () => import("mespeak/voices/pt.json"),
  "pt-pt": () => import("mespeak/voices/pt-pt.json"),
  ro: () => import("mespeak/voices/ro.json"),
  sk: () => import("mespeak/voices/sk.json"),
  sv: () => import("mespeak/voices/sv.json"),
  tr: () => import("mespeak/voices/tr.json"),
  zh: () => import("mespeak/voices/zh.json"),
};

/** eSpeak's female variant file, as meSpeak's own setup writes it. */
const VARIANT_FILES: Record<string, string> = {
  [FEMALE_VARIANT]:
    "language variant\nname female2\ngender female\npitch 142 220\nroughness 3\nformant 0 105 80 150\nformant 1 110 80 160\nformant 2 110 70 150\nformant 3 110 70 150\nformant 4 115 80 150\nformant 5 115 80 150\nformant 6 110 70 150\nformant 7 110 70 150\nformant 8 110 70 150\nstressAdd 0 0 -10 -10 0 0 10 40\nbreath 0 2 3 3 3 3 3 2\necho 140 10\nconsonants 125 125\n",
};

interface DataFile {
  dir: string;
  name: string;
  bytes: Uint8Array;
}

const base64Bytes = (text: string): Uint8Array => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/** The text as eSpeak's argument: its UTF-8 bytes one character each, after a space. */
const utf8Argument = (text: string): string => {
  let out = " ";
  for (const byte of new TextEncoder().encode(text)) out += String.fromCharCode(byte);
  return out;
};

/**
 * One eSpeak engine over its virtual file system, replaced by a fresh one whenever the next
 * call could take it near its open-file limit. The files written into it (the shared data,
 * each voice loaded so far) are kept, decoded, to copy into the next instance.
 */
export class Mespeak {
  private instance: ESpeakInstance | null = null;
  private baseline = 0;
  /** Every file written into an instance, by its path: a file can never be listed (or written) twice. */
  private readonly files = new Map<string, DataFile>();
  /**
   * Each voice file's load, from its first request on: a second request for the same voice
   * (two calls in a new language at once) waits for the first load rather than adding the
   * files again, which the runtime refuses ("Can't overwrite object.") on every rebuild after.
   */
  private readonly loads = new Map<string, Promise<void>>();
  /** How many instances this object has built (tests read it to see the replacement happen). */
  instancesBuilt = 0;

  constructor() {
    for (const name of ["config", "phontab", "phonindex", "phondata", "intonations"] as const) {
      this.add({ dir: DATA_DIR, name, bytes: base64Bytes(config[name]) });
    }
    for (const [name, text] of Object.entries(VARIANT_FILES)) {
      this.add({ dir: `${VOICES_DIR}/!v`, name, bytes: new TextEncoder().encode(text) });
    }
  }

  /** Makes `file`'s voice (and English's, which eSpeak reads for Latin-script words in any language) speakable. */
  async load(file: string): Promise<void> {
    for (const needed of file === "en/en-us" ? [file] : ["en/en-us", file]) {
      let loading = this.loads.get(needed);
      if (!loading) {
        loading = this.loadOne(needed);
        this.loads.set(needed, loading);
        // A failed load may be tried again by the next call.
        loading.catch(() => this.loads.delete(needed));
      }
      await loading;
    }
  }

  private async loadOne(needed: string): Promise<void> {
    const importer = VOICE_FILES[needed];
    if (!importer) throw new Error(`no meSpeak voice file ${needed}`);
    const voice = (await importer()).default;
    const parts = voice.voice_id.split("/");
    this.add({
      dir: parts.length > 1 ? `${VOICES_DIR}/${parts.slice(0, -1).join("/")}` : VOICES_DIR,
      name: parts[parts.length - 1]!,
      bytes: base64Bytes(voice.voice),
    });
    // English's accents share one dictionary: decoded once.
    if (!this.files.has(`${DATA_DIR}/${voice.dict_id}`)) {
      this.add({ dir: DATA_DIR, name: voice.dict_id, bytes: base64Bytes(voice.dict) });
    }
  }

  /** Lists `file` for every instance, and writes it into the current one; a path already listed is kept as it is. */
  private add(file: DataFile): void {
    const path = `${file.dir}/${file.name}`;
    if (this.files.has(path)) return;
    this.files.set(path, file);
    if (this.instance) writeFile(this.instance, file);
  }

  /**
   * Drops the current instance (its 50 MB heap), to be rebuilt by the next call: a long answer
   * frees it before its pieces are joined, so the isolate never holds both (decision 060).
   */
  release(): void {
    this.instance = null;
  }

  /**
   * One WAV (22 050 Hz, 16-bit, mono) of `text` in a loaded voice. `wordsPerMinute` is eSpeak's
   * `-s` (80 is its slowest; 175 its normal pace); `pitch` its `-p` (0–99, 50 the voice's own).
   * Synchronous: eSpeak runs to the end.
   */
  speak(text: string, voice: { file: string; variant?: string }, wordsPerMinute: number, pitch = 50): Uint8Array {
    const engine = this.ready();
    const voiceId = voice.file + (voice.variant ? `+${voice.variant}` : "");
    engine.Module.arguments = [
      "-w",
      OUTPUT,
      "-a",
      "100",
      "-g",
      "0",
      "-p",
      String(Math.round(pitch)),
      "-s",
      String(Math.round(wordsPerMinute)),
      "-b",
      "1",
      "-v",
      voiceId,
      `--path=/espeak`,
      utf8Argument(text),
    ];
    try {
      engine.run();
      const output = engine.FS.root.contents[OUTPUT];
      if (!output) throw new Error("eSpeak wrote no WAV");
      const wav = Uint8Array.from(output.contents);
      // Free the samples the runtime keeps as a plain array (a minute of speech is ~2.6 M entries).
      (output.contents as number[]).length = 0;
      return wav;
    } catch (error) {
      // A throw leaves the runtime's state unknown: the next call starts on a fresh instance.
      this.instance = null;
      throw error;
    }
  }

  /** Opens the current instance has made since it was built. */
  opensUsed(): number {
    return this.instance ? this.instance.FS.streams.length - this.baseline : 0;
  }

  /** The instance, replaced first when the next call could bring it near its limit. */
  private ready(): ESpeakInstance {
    if (this.instance && this.opensUsed() + OPENS_PER_CALL <= OPENS_PER_INSTANCE) return this.instance;
    // Drop the old one first: each holds a 50 MB heap, and two need not live at once.
    this.instance = null;
    const engine = new ESpeak();
    engine.FS.createPath("/", `${VOICES_DIR.slice(1)}/!v`, true, true);
    engine.FS.root.write = true;
    for (const f of this.files.values()) writeFile(engine, f);
    this.instance = engine;
    this.baseline = engine.FS.streams.length;
    this.instancesBuilt += 1;
    return engine;
  }
}

/** Writes `file` into the instance's file system, unless it is there already (the runtime refuses to overwrite). */
function writeFile(engine: ESpeakInstance, file: DataFile): void {
  if (!engine.FS.findObject(file.dir)) engine.FS.createPath("/", file.dir.slice(1), true, true);
  if (engine.FS.findObject(`${file.dir}/${file.name}`)) return;
  engine.FS.createDataFile(file.dir, file.name, file.bytes, true, false);
}
