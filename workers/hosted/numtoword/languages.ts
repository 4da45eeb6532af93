/**
 * Number words in Hindi, Spanish, French and German: n2words (MIT, one module per locale)
 * spells the integers, and this file corrects what it gets wrong against CLDR's spell-out
 * rules and each language's authority (decision 046 lists every correction and its source).
 * Signs, decimals and currency amounts are composed here, the same way in every language, so
 * the API answers alike whatever the language: the minus word, then the integer, then the
 * decimal separator and the digits one by one (CLDR's "-x" and "x.x" rules, and what the
 * English answer does).
 */
import * as de from "n2words/de-DE";
import * as es from "n2words/es-ES";
import * as fr from "n2words/fr-FR";
import * as hi from "n2words/hi-IN";
import type { CurrencyCode } from "./currencies";

export const OTHER_LANGUAGES = ["hi", "es", "fr", "de"] as const;
export type OtherLanguage = (typeof OTHER_LANGUAGES)[number];

export interface LanguageRules {
  name: string;
  minus: string;
  point: string;
  /** A whole number of zero or more. */
  cardinal(value: bigint): string;
  /** Ordinals from 1 to `ordinalMax`, inclusive; the library spells none below 1. */
  ordinalMax: bigint | null;
  ordinal(value: bigint): string;
  /** The one currency whose unit names the language carries (n2words' own choice per locale). */
  currency: CurrencyCode;
  /** A whole amount of that currency in its major (`minor: false`) or minor unit. */
  amount(value: bigint, minor: boolean): string;
  /** How the major and minor parts of an amount are joined. */
  and: string;
}

const MILLION = 1_000_000n;

// Spanish ---------------------------------------------------------------------------------------

/** Long scale (RAE): millón 10^6, billón 10^12, trillón 10^18. */
const ES_SCALES = [
  ["millón", "millones"],
  ["billón", "billones"],
  ["trillón", "trillones"],
] as const;

/**
 * "uno" loses its last vowel before a masculine noun and before mil (RAE, Diccionario
 * panhispánico de dudas, "uno"; CLDR's %spellout-cardinal-masculine): "veintiún mil",
 * "treinta y un millones", "veintiún euros". n2words writes "veintiuno mil".
 */
function apocopate(words: string): string {
  return words.replace(
    /(^| )(veinti)?uno$/,
    (_, lead: string, twenty?: string) => `${lead}${twenty ? "veintiún" : "un"}`,
  );
}

function esBelowMillion(value: bigint): string {
  return (
    es
      .toCardinal(value)
      // n2words drops the accent the RAE writes on dieciséis.
      .replace(/dieciseis/g, "dieciséis")
      .replace(
        /(^| )(veinti)?uno(?= mil\b)/g,
        (_, lead: string, twenty?: string) => `${lead}${twenty ? "veintiún" : "un"}`,
      )
  );
}

/**
 * n2words names every group of three digits past a million ("novecientos mil millones
 * novecientos millones"); Spanish counts millions, billions and trillions as groups of six
 * ("novecientos mil novecientos millones"), so the groups are put together here.
 */
function esCardinal(value: bigint): string {
  if (value < MILLION) return esBelowMillion(value);
  const parts: string[] = [];
  let rest = value;
  const groups: bigint[] = [];
  while (rest > 0n) {
    groups.push(rest % MILLION);
    rest /= MILLION;
  }
  for (let scale = groups.length - 1; scale >= 0; scale--) {
    const group = groups[scale] ?? 0n;
    if (group === 0n) continue;
    const names = ES_SCALES[scale - 1];
    if (!names) parts.push(esBelowMillion(group));
    else parts.push(group === 1n ? `un ${names[0]}` : `${apocopate(esBelowMillion(group))} ${names[1]}`);
  }
  return parts.join(" ");
}

/** RAE and CLDR: the tens of 11–19 join their unit (decimotercero; decimoctavo drops an o). */
const ES_TEENTH = /décimo (primero|segundo|tercero|cuarto|quinto|sexto|séptimo|octavo|noveno)/;
/** The hundreds n2words builds from Latin-looking prefixes, as the RAE writes them. */
const ES_HUNDREDTHS: Readonly<Record<string, string>> = {
  cuadricentésimo: "cuadringentésimo",
  quincentésimo: "quingentésimo",
  septicentésimo: "septingentésimo",
  octicentésimo: "octingentésimo",
  nonicentésimo: "noningentésimo",
};

function esOrdinal(value: bigint): string {
  return es
    .toOrdinal(value)
    .replace(ES_TEENTH, (_, unit: string) => (unit === "octavo" ? "decimoctavo" : `decimo${unit}`))
    .replace(/^\S+centésimo/, (word) => ES_HUNDREDTHS[word] ?? word);
}

/** Amounts: "un millón de euros" — de after a bare million (RAE, "millón"). */
function esAmount(value: bigint, minor: boolean): string {
  const count = apocopate(esCardinal(value));
  const unit = minor ? (value === 1n ? "céntimo" : "céntimos") : value === 1n ? "euro" : "euros";
  return /(millón|millones|billón|billones|trillón|trillones)$/.test(count)
    ? `${count} de ${unit}`
    : `${count} ${unit}`;
}

// French ----------------------------------------------------------------------------------------

/** Amounts: French takes the plural from two on ("zéro euro", "un euro", "deux euros"), and "d'euros" after a bare million. */
function frAmount(value: bigint, minor: boolean): string {
  const count = fr.toCardinal(value);
  const unit = `${minor ? "centime" : "euro"}${value >= 2n ? "s" : ""}`;
  return /(million|milliard|billion|billiard|trillion)s?$/.test(count) ? `${count} d'${unit}` : `${count} ${unit}`;
}

// German ----------------------------------------------------------------------------------------

/**
 * n2words leaves "eins" before tausend and before the feminine Million, Milliarde…:
 * "einhunderteinstausend", "einhunderteins Millionen". CLDR and Duden: "einhunderteintausend",
 * "einhunderteine Millionen".
 */
function deFix(words: string): string {
  return words
    .replace(/eins(?=tausend)/g, "ein")
    .replace(/eins(?= (Million|Milliard|Billion|Billiard|Trillion))/g, "eine");
}

/** Amounts: "eins" is "ein" before a noun ("einhundertein Euro"); Euro and Cent do not change. */
function deAmount(value: bigint, minor: boolean): string {
  return `${deFix(de.toCardinal(value)).replace(/eins$/, "ein")} ${minor ? "Cent" : "Euro"}`;
}

// Hindi -----------------------------------------------------------------------------------------

/**
 * n2words and CLDR spell fifteen of 0–99 differently; both forms are in use, and CLDR's are
 * what ICU, and so Android, Java and most software, print. We follow CLDR.
 */
const HI_SPELLING: Readonly<Record<string, string>> = {
  पंद्रह: "पन्द्रह",
  तेतालीस: "तैंतालीस",
  चवालीस: "चौवालीस",
  तिरपन: "तिरेपन",
  तिरसठ: "तिरेसठ",
  उन्यासी: "उनासी",
  इक्यानवे: "इक्यानबे",
  बानवे: "बानबे",
  तिरानवे: "तिरानबे",
  चौरानवे: "चौरानबे",
  पचानवे: "पंचानबे",
  छियानवे: "छियानबे",
  सत्तानवे: "सत्तानबे",
  अट्ठानवे: "अट्ठानबे",
  निन्यानवे: "निन्यानबे",
};
const KHARAB = 100_000_000_000n;

/**
 * Lakh, crore, arab (10^9), kharab (10^11); past 99 kharab the count of kharabs is spelled the
 * same way ("एक सौ खरब"), as CLDR's rules do. n2words goes on with नील, पद्म, शंख and drops the
 * words for 10^19 and up.
 */
function hiCardinal(value: bigint): string {
  if (value >= 100n * KHARAB) {
    const rest = value % KHARAB;
    return `${hiCardinal(value / KHARAB)} खरब${rest > 0n ? ` ${hiCardinal(rest)}` : ""}`;
  }
  return hi
    .toCardinal(value)
    .split(" ")
    .map((word) => HI_SPELLING[word] ?? word)
    .join(" ");
}

/** पहला to छठा are their own words; from seven on, the cardinal takes वाँ (as CLDR). */
function hiOrdinal(value: bigint): string {
  return value <= 6n ? hi.toOrdinal(value) : `${hiCardinal(value)}वाँ`;
}

function hiAmount(value: bigint, minor: boolean): string {
  const unit = minor ? (value === 1n ? "पैसा" : "पैसे") : value === 1n ? "रुपया" : "रुपये";
  return `${hiCardinal(value)} ${unit}`;
}

// -----------------------------------------------------------------------------------------------

export const LANGUAGE_RULES: Readonly<Record<OtherLanguage, LanguageRules>> = {
  hi: {
    name: "Hindi",
    // CLDR's words; n2words says माइनस (the English loan) where CLDR and school mathematics say ऋण.
    minus: "ऋण",
    point: "दशमलव",
    cardinal: hiCardinal,
    ordinalMax: null,
    ordinal: hiOrdinal,
    currency: "INR",
    amount: hiAmount,
    and: " ",
  },
  es: {
    name: "Spanish",
    minus: "menos",
    // The RAE's Ortografía (2010) recommends the point as decimal sign; CLDR reads it "punto".
    point: "punto",
    cardinal: esCardinal,
    // n2words builds ordinals past 999 wrongly ("segundo milésimo" for dosmilésimo).
    ordinalMax: 999n,
    ordinal: esOrdinal,
    currency: "EUR",
    amount: esAmount,
    and: " con ",
  },
  fr: {
    name: "French",
    minus: "moins",
    point: "virgule",
    // Traditional spelling ("vingt et un", "deux cent un"): the 1990 hyphens are recommended,
    // not required, and the traditional form is what written-number and most texts use.
    cardinal: (value) => fr.toCardinal(value),
    // Past 999,999 n2words and CLDR disagree on plurals ("millions…ième"); kept to what both confirm.
    ordinalMax: 999_999n,
    ordinal: (value) => fr.toOrdinal(value),
    currency: "EUR",
    amount: frAmount,
    and: " et ",
  },
  de: {
    name: "German",
    minus: "minus",
    // A noun, so capitalised (CLDR, Duden); n2words writes "komma".
    point: "Komma",
    cardinal: (value) => deFix(de.toCardinal(value)),
    // Past 999,999 both n2words and CLDR write "eine Millionste", where Duden has "millionste".
    ordinalMax: 999_999n,
    ordinal: (value) => deFix(de.toOrdinal(value)),
    currency: "EUR",
    amount: deAmount,
    and: " und ",
  },
};
