/**
 * The languages Image to Text reads: every Tesseract model that installs from npm as
 * `@tesseract.js-data/<code>` with an LSTM model (its `4.0.0_best_int` folder), which is what
 * tesseract-wasm runs. `equ` (equations) and `osd` (orientation) are left out: `equ` has only
 * a legacy model, and `osd` is no language.
 *
 * One table, read by the API's schema and docs, by the engine Worker, and by the scripts that
 * copy and upload the models (scripts/engine-assets.ts fails the build when package.json's
 * `@tesseract.js-data/*` packages and this table differ). It imports nothing, so those Node
 * scripts can import it as it is.
 *
 * Columns: Tesseract's code (ISO 639-2/T, with its script or writing-direction suffix), the
 * language's English name, and its ISO 639-1 code where it has one and that code names this
 * model unambiguously (Chinese, vertical writing and alternative scripts have none).
 */
const TABLE = [
  ["afr", "Afrikaans", "af"],
  ["amh", "Amharic", "am"],
  ["ara", "Arabic", "ar"],
  ["asm", "Assamese", "as"],
  ["aze", "Azerbaijani", "az"],
  ["bel", "Belarusian", "be"],
  ["ben", "Bengali", "bn"],
  ["bod", "Tibetan", "bo"],
  ["bos", "Bosnian", "bs"],
  ["bul", "Bulgarian", "bg"],
  ["cat", "Catalan", "ca"],
  ["ceb", "Cebuano", null],
  ["ces", "Czech", "cs"],
  ["chi_sim", "Chinese (Simplified)", null],
  ["chi_tra", "Chinese (Traditional)", null],
  ["chi_tra_vert", "Chinese (Traditional, vertical)", null],
  ["cym", "Welsh", "cy"],
  ["dan", "Danish", "da"],
  ["deu", "German", "de"],
  ["div", "Dhivehi", "dv"],
  ["ell", "Greek", "el"],
  ["eng", "English", "en"],
  ["enm", "Middle English", null],
  ["epo", "Esperanto", "eo"],
  ["est", "Estonian", "et"],
  ["eus", "Basque", "eu"],
  ["fas", "Persian", "fa"],
  ["fil", "Filipino", null],
  ["fin", "Finnish", "fi"],
  ["fra", "French", "fr"],
  ["frk", "German (Fraktur)", null],
  ["gle", "Irish", "ga"],
  ["glg", "Galician", "gl"],
  ["guj", "Gujarati", "gu"],
  ["hat", "Haitian Creole", "ht"],
  ["heb", "Hebrew", "he"],
  ["hin", "Hindi", "hi"],
  ["hrv", "Croatian", "hr"],
  ["hun", "Hungarian", "hu"],
  ["hye", "Armenian", "hy"],
  ["ind", "Indonesian", "id"],
  ["isl", "Icelandic", "is"],
  ["ita", "Italian", "it"],
  ["jav", "Javanese", "jv"],
  ["jpn", "Japanese", "ja"],
  ["jpn_vert", "Japanese (vertical)", null],
  ["kan", "Kannada", "kn"],
  ["kat", "Georgian", "ka"],
  ["kaz", "Kazakh", "kk"],
  ["kir", "Kyrgyz", "ky"],
  ["kor", "Korean", "ko"],
  ["lao", "Lao", "lo"],
  ["lat", "Latin", "la"],
  ["lav", "Latvian", "lv"],
  ["lit", "Lithuanian", "lt"],
  ["ltz", "Luxembourgish", "lb"],
  ["mal", "Malayalam", "ml"],
  ["mar", "Marathi", "mr"],
  ["mkd", "Macedonian", "mk"],
  ["mlt", "Maltese", "mt"],
  ["mon", "Mongolian", "mn"],
  ["mri", "Maori", "mi"],
  ["msa", "Malay", "ms"],
  ["mya", "Burmese", "my"],
  ["nep", "Nepali", "ne"],
  ["nld", "Dutch", "nl"],
  ["nor", "Norwegian", "no"],
  ["ori", "Odia", "or"],
  ["pan", "Punjabi", "pa"],
  ["pol", "Polish", "pl"],
  ["por", "Portuguese", "pt"],
  ["pus", "Pashto", "ps"],
  ["que", "Quechua", "qu"],
  ["ron", "Romanian", "ro"],
  ["san", "Sanskrit", "sa"],
  ["sin", "Sinhala", "si"],
  ["slk", "Slovak", "sk"],
  ["slv", "Slovenian", "sl"],
  ["snd", "Sindhi", "sd"],
  ["spa", "Spanish", "es"],
  ["sqi", "Albanian", "sq"],
  ["srp", "Serbian (Cyrillic)", "sr"],
  ["sun", "Sundanese", "su"],
  ["swa", "Swahili", "sw"],
  ["swe", "Swedish", "sv"],
  ["tam", "Tamil", "ta"],
  ["tat", "Tatar", "tt"],
  ["tel", "Telugu", "te"],
  ["tgk", "Tajik", "tg"],
  ["tha", "Thai", "th"],
  ["tir", "Tigrinya", "ti"],
  ["tur", "Turkish", "tr"],
  ["uig", "Uyghur", "ug"],
  ["ukr", "Ukrainian", "uk"],
  ["urd", "Urdu", "ur"],
  ["uzb", "Uzbek (Latin)", "uz"],
  ["uzb_cyrl", "Uzbek (Cyrillic)", null],
  ["vie", "Vietnamese", "vi"],
  ["yid", "Yiddish", "yi"],
  ["yor", "Yoruba", "yo"],
] as const;

export type OcrLanguage = (typeof TABLE)[number][0];

export const OCR_LANGUAGES: readonly OcrLanguage[] = TABLE.map(([code]) => code);

export const OCR_LANGUAGE_NAMES = Object.fromEntries(TABLE.map(([code, name]) => [code, name])) as Record<
  OcrLanguage,
  string
>;

/**
 * OCR.space's language codes where they differ from Tesseract's (ISO 639-2/B and its own
 * Chinese codes), so a client written for OCR.space keeps its `language` value.
 */
const OCR_SPACE_CODES = {
  chs: "chi_sim",
  cht: "chi_tra",
  cze: "ces",
  dut: "nld",
  fre: "fra",
  ger: "deu",
  gre: "ell",
  vnm: "vie",
} as const satisfies Record<string, OcrLanguage>;

/** Every name a language is accepted by, lower case: Tesseract's, OCR.space's, ISO 639-1. */
export const OCR_LANGUAGE_ALIASES: ReadonlyMap<string, OcrLanguage> = new Map<string, OcrLanguage>([
  ...TABLE.map(([code]) => [code, code] as const),
  ...TABLE.flatMap(([code, , iso]) => (iso === null ? [] : [[iso, code] as const])),
  ...Object.entries(OCR_SPACE_CODES),
]);

/** Models that live inside the engine Worker; every other one is read from its model store. */
export const BUNDLED_OCR_LANGUAGES = ["eng"] as const satisfies readonly OcrLanguage[];

/** Where a model lives in the OCR_MODELS bucket: versioned, so an upgrade never mixes files. */
export const ocrModelKey = (language: OcrLanguage): string => `tesseract/4.0.0_best_int/${language}.traineddata.gz`;
