/**
 * Hindi, Spanish, French and German number words, each checked against a reference the code
 * under test does not use: written-number for Spanish and French, CLDR's spell-out rules
 * (read by the small evaluator below) for German and Hindi, and for ordinals in all four.
 * Where a reference is wrong, the test says which source decides and asserts that.
 */
import deRbnf from "cldr-rbnf/rbnf/de.json";
import esRbnf from "cldr-rbnf/rbnf/es.json";
import frRbnf from "cldr-rbnf/rbnf/fr.json";
import hiRbnf from "cldr-rbnf/rbnf/hi.json";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import writtenNumber from "written-number";
import { callOperation, expectJson, expectProblem, findOperation } from "../_data/operation-test-helpers";
import { definition } from "./index";
import type { NumberWords } from "./schema";

const getWords = findOperation(definition, "numberToWords");
const postWords = findOperation(definition, "numberToWordsJson");

async function spell(raw: Record<string, unknown>): Promise<NumberWords> {
  return expectJson(await callOperation(postWords, raw)) as NumberWords;
}

async function words(raw: Record<string, unknown>): Promise<string> {
  return (await spell(raw)).words;
}

async function refusal(raw: Record<string, unknown>): Promise<string> {
  return expectProblem(await callOperation(postWords, raw), "invalid-input");
}

// ---------------------------------------------------------------------------------------------
// A reader of ICU rule-based number format rules, integers only: enough for CLDR's spell-out
// rules. ←←/→→ spell the quotient/remainder by the rule's divisor with the same rule set,
// ←%set←/→%set→/=%set= with another; [text] is dropped when the remainder is zero; "60/20"
// gives a radix; and, as ICU does, a rule whose base is not a multiple of its divisor ("101:
// ciento →→") gives way to the previous rule for exact multiples.
// ---------------------------------------------------------------------------------------------
type RuleSets = Record<string, [string, string][]>;

function spellOut(sets: RuleSets, setName: string, n: bigint): string {
  const rules = sets[setName];
  if (!rules) throw new Error(`no rule set ${setName}`);
  if (n < 0n) return expand(sets, setName, rules.find(([key]) => key === "-x")?.[1] ?? "", -n, -n, -n);
  const normal = rules
    .filter(([key]) => /^\d/.test(key))
    .map(([key, body]) => {
      const [base = 0n, radix = 10n] = key.split("/").map(BigInt);
      let divisor = 1n;
      while (divisor * radix <= base) divisor *= radix;
      return { base, divisor, body };
    });
  const index = normal.findLastIndex((rule) => rule.base <= n);
  const found = normal[index];
  const rollBack =
    found !== undefined && found.body.includes("→") && n % found.divisor === 0n && found.base % found.divisor !== 0n;
  const rule = rollBack ? normal[index - 1] : found;
  if (!rule) throw new Error(`no rule for ${n} in ${setName}`);
  return expand(sets, setName, rule.body, n / rule.divisor, n % rule.divisor, n);
}

function expand(sets: RuleSets, own: string, body: string, quotient: bigint, remainder: bigint, whole: bigint): string {
  const sub = (token: string, value: bigint) => {
    const name = token.slice(1, -1);
    if (/^[#0]/.test(name)) throw new Error(`CLDR writes digits here (${token})`);
    return spellOut(sets, name === "" ? own : name, value);
  };
  return body
    .replace(/;$/, "")
    .replace(/^'/, "")
    .replace(/\[([^\]]*)\]/g, (_, optional: string) => (remainder === 0n ? "" : optional))
    .replace(/=([^=]*)=/g, (token) => sub(token, whole))
    .replace(/←([^←]*)←/g, (token) => sub(token, quotient))
    .replace(/→([^→]*)→/g, (token) => sub(token, remainder))
    .replace(/\u00ad/g, ""); // CLDR marks hyphenation points with soft hyphens
}

function rulesOf(file: unknown): RuleSets {
  return (file as { rbnf: { rbnf: { SpelloutRules: RuleSets } } }).rbnf.rbnf.SpelloutRules;
}

/**
 * CLDR switches to digits at 10^18 (`=#,##0=`). Past that the scale words go on by the same
 * rules, so a language's next rules are added here from its authority (named where used).
 */
function extendedRules(file: unknown, setNames: string[], extra: [string, string][]): RuleSets {
  const sets = { ...rulesOf(file) };
  for (const name of setNames) {
    const rules = (sets[name] ?? []).filter(([key]) => !/^1000000000000000000$/.test(key));
    sets[name] = [...rules, ...extra];
  }
  return sets;
}

/** Duden's long scale: Trillion = 10^18 (Trilliarde = 10^21 is past our range). */
const DE = extendedRules(
  deRbnf,
  ["%spellout-numbering", "%spellout-cardinal-masculine", "%spellout-cardinal-feminine"],
  [
    ["1000000000000000000", "eine Trillion[ →→];"],
    ["2000000000000000000", "←%spellout-cardinal-feminine← Trillionen[ →→];"],
  ],
);
/** CLDR's own खरब rule (10^11) simply carries on: 10^20 is एक अरब खरब. */
const HI = extendedRules(hiRbnf, ["%spellout-cardinal"], []);
/** RAE's long scale: trillón = 10^18. */
const ES = extendedRules(
  esRbnf,
  ["%spellout-numbering", "%spellout-cardinal-masculine"],
  [
    ["1000000000000000000", "un trillón[ →→];"],
    ["2000000000000000000", "←%spellout-cardinal-masculine← trillones[ →→];"],
  ],
);
const FR = rulesOf(frRbnf);

/** 0–1000 exhaustively, then the values where number words are irregular or change scale. */
const SPREAD: bigint[] = [
  ...Array.from({ length: 1001 }, (_, i) => BigInt(i)),
  ...[1001, 1010, 1100, 1990, 2000, 2001, 21_000, 31_000, 71_000, 80_000, 81_000, 91_000, 100_000, 101_000]
    .concat([200_000, 999_999, 1_000_000, 1_000_001, 2_000_000, 21_000_000, 80_000_000, 100_000_000])
    .concat([123_456_789, 1e9, 1e9 + 1, 2e9, 21e9, 1e12, 1e12 + 1, 2e12, 1e15, 2e15])
    .map(BigInt),
];
const BEYOND_FLOATS = fc.bigInt({ min: 0n, max: 10n ** 21n - 1n });

describe("numtoword languages: the language parameter", () => {
  it.each([
    ["hi", "बयालीस"],
    ["hi-IN", "बयालीस"],
    ["es", "cuarenta y dos"],
    ["es-ES", "cuarenta y dos"],
    ["fr", "quarante-deux"],
    ["fr-FR", "quarante-deux"],
    ["de", "zweiundvierzig"],
    ["de-DE", "zweiundvierzig"],
    ["en", "forty-two"],
    ["en-US", "forty-two"],
  ])("%s spells 42 as %s", async (language, expected) => {
    expect(await words({ number: 42, language })).toBe(expected);
  });

  it("takes the language from the query string too", async () => {
    expect(expectJson(await callOperation(getWords, { number: "21", language: "es" }))).toEqual({
      words: "veintiuno",
      number: "21",
      mode: "cardinal",
    });
  });

  it("refuses a language it does not speak, naming those it does", () => {
    const result = postWords.input.safeParse({ number: 5, language: "it" });
    expect(result.success).toBe(false);
    const message = JSON.stringify(result.error?.issues);
    for (const language of ["en", "hi", "es", "fr", "de"]) expect(message).toContain(`"${language}"`);
  });
});

describe("numtoword languages: Spanish against written-number", () => {
  // written-number (and n2words) write "uno" before mil, millón and billón; the RAE
  // (Diccionario panhispánico de dudas, "uno") and CLDR apocopate it: "veintiún mil",
  // "un millón uno".
  const APOCOPE = /(^| )(veinti)?uno (mil|millón|millones|billón|billones)\b/;

  it("0–1000 and the irregular and scale values read as written-number reads them, or as the RAE where it errs", async () => {
    let apocopated = 0;
    for (const value of SPREAD) {
      const reference = writtenNumber(Number(value), { lang: "es" });
      const expected = APOCOPE.test(reference) ? spellOut(ES, "%spellout-numbering", value) : reference;
      if (expected !== reference) apocopated++;
      expect(await words({ number: value.toString(), language: "es" }), `${value}`).toBe(expected);
    }
    expect(apocopated).toBeGreaterThan(5);
  });

  it.each([
    [16, "dieciséis"],
    [21, "veintiuno"],
    [100, "cien"],
    [101, "ciento uno"],
    [1000, "mil"],
    [21_000, "veintiún mil"],
    [31_000, "treinta y un mil"],
    [101_000, "ciento un mil"],
    [1_000_001, "un millón uno"],
    [21_000_000, "veintiún millones"],
    [1e9, "mil millones"],
    [
      "999999999999",
      "novecientos noventa y nueve mil novecientos noventa y nueve millones novecientos noventa y nueve mil novecientos noventa y nueve",
    ],
    ["1000000000000000000", "un trillón"],
  ])("%j is %s", async (number, expected) => {
    expect(await words({ number, language: "es" })).toBe(expected);
  });

  it("any integer below 10^21 reads as CLDR's rules (RAE's trillón added past 10^18) read it", async () => {
    await fc.assert(
      fc.asyncProperty(BEYOND_FLOATS, async (value) => {
        expect(await words({ number: value.toString(), language: "es" })).toBe(
          spellOut(ES, "%spellout-numbering", value),
        );
      }),
      { numRuns: 200 },
    );
  });
});

describe("numtoword languages: French against written-number", () => {
  it("0–1000 and the irregular and scale values read as written-number reads them, except vingt and cent before mille", async () => {
    for (const value of SPREAD) {
      // written-number writes "quatre-vingts mille", "deux cents mille"; vingt and cent take no s
      // when another numeral follows, and mille is a numeral (Académie française, Dictionnaire,
      // 9th ed., "cent" and "vingt"; Grevisse, Le Bon Usage, on the numerals).
      const reference = writtenNumber(Number(value), { lang: "fr" }).replace(/(vingt|cent)s mille/g, "$1 mille");
      expect(await words({ number: value.toString(), language: "fr" }), `${value}`).toBe(reference);
    }
    expect(await words({ number: 80_000, language: "fr" })).toBe("quatre-vingt mille");
    expect(await words({ number: 200_000, language: "fr" })).toBe("deux cent mille");
    expect(await words({ number: 80, language: "fr" })).toBe("quatre-vingts");
    expect(await words({ number: 200_000_000, language: "fr" })).toBe("deux cents millions");
  });

  it.each([
    [21, "vingt et un"],
    [71, "soixante et onze"],
    [80, "quatre-vingts"],
    [81, "quatre-vingt-un"],
    [91, "quatre-vingt-onze"],
    [100, "cent"],
    [101, "cent un"],
    [1000, "mille"],
    [1001, "mille un"],
    [1e6, "un million"],
    [1e9, "un milliard"],
    ["1000000000000000000", "un trillion"],
  ])("%j is %s (traditional spelling, not the 1990 hyphens)", async (number, expected) => {
    expect(await words({ number, language: "fr" })).toBe(expected);
  });
});

describe("numtoword languages: German against CLDR's spell-out rules", () => {
  it("0–1000 and the irregular and scale values read as CLDR's %spellout-numbering reads them", async () => {
    for (const value of SPREAD) {
      expect(await words({ number: value.toString(), language: "de" }), `${value}`).toBe(
        spellOut(DE, "%spellout-numbering", value),
      );
    }
  });

  it("units and tens are CLDR's literal entries", async () => {
    const literal = Object.fromEntries(rulesOf(deRbnf)["%spellout-numbering"]?.map(([key, body]) => [key, body]) ?? []);
    for (const value of [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 16, 17]) {
      expect(await words({ number: value, language: "de" })).toBe(literal[String(value)]?.replace(/;$/, ""));
    }
  });

  it.each([
    [101_000, "einhunderteintausend"],
    [201_000_000, "zweihunderteine Millionen"],
    [1_000_001, "eine Million eins"],
    ["1000000000000000000", "eine Trillion"],
    ["100000000000000000000", "einhundert Trillionen"],
  ])("%j is %s", async (number, expected) => {
    expect(await words({ number, language: "de" })).toBe(expected);
  });

  it("any integer below 10^21 reads as CLDR's rules (Duden's Trillion added past 10^18) read it", async () => {
    await fc.assert(
      fc.asyncProperty(BEYOND_FLOATS, async (value) => {
        expect(await words({ number: value.toString(), language: "de" })).toBe(
          spellOut(DE, "%spellout-numbering", value),
        );
      }),
      { numRuns: 200 },
    );
  });
});

describe("numtoword languages: Hindi against CLDR's spell-out rules", () => {
  it("0–99, the irregular part, are CLDR's literal entries", async () => {
    const literal = new Map(rulesOf(hiRbnf)["%spellout-cardinal"]?.map(([key, body]) => [key, body.replace(/;$/, "")]));
    for (let value = 0; value < 100; value++) {
      expect(await words({ number: value, language: "hi" }), `${value}`).toBe(literal.get(String(value)));
    }
  });

  it("the spread reads as CLDR's %spellout-cardinal reads it", async () => {
    for (const value of SPREAD) {
      expect(await words({ number: value.toString(), language: "hi" }), `${value}`).toBe(
        spellOut(HI, "%spellout-cardinal", value),
      );
    }
  });

  it.each([
    [100_000, "एक लाख"],
    [12_345_678, "एक करोड़ तेईस लाख पैंतालीस हज़ार छह सौ अठहत्तर"],
    [1e9, "एक अरब"],
    [1e11, "एक खरब"],
    [1e13, "एक सौ खरब"],
    ["100000000000000000000", "एक अरब खरब"],
  ])("%j is %s (lakh and crore, then CLDR's अरब and खरब)", async (number, expected) => {
    expect(await words({ number, language: "hi" })).toBe(expected);
  });

  it("any integer below 10^21 reads as CLDR's rules read it, the खरब rule carried past 10^18", async () => {
    await fc.assert(
      fc.asyncProperty(BEYOND_FLOATS, async (value) => {
        expect(await words({ number: value.toString(), language: "hi" })).toBe(
          spellOut(HI, "%spellout-cardinal", value),
        );
      }),
      { numRuns: 200 },
    );
  });

  it("refuses the international grouping: Hindi numbers are grouped in lakh and crore", async () => {
    expect(await refusal({ number: 5, language: "hi", system: "international" })).toContain("lakh");
    expect(await words({ number: 100_000, language: "hi", system: "indian" })).toBe("एक लाख");
  });
});

describe("numtoword languages: negatives and decimals", () => {
  // CLDR's "-x" and "x.x" rules: the minus word, the separator, then the digits one by one —
  // as the English answer reads them.
  it.each([
    ["es", "-2.05", "menos dos punto cero cinco"],
    ["fr", "-2.05", "moins deux virgule zéro cinq"],
    ["de", "-2.05", "minus zwei Komma null fünf"],
    ["hi", "-2.05", "ऋण दो दशमलव शून्य पाँच"],
    ["fr", "3.14", "trois virgule un quatre"],
    ["de", "0.5", "null Komma fünf"],
    ["hi", "-0.000", "शून्य"],
  ])("%s: %s is %s", async (language, number, expected) => {
    expect(await words({ number, language })).toBe(expected);
  });

  it.each([
    ["es", "-x", "menos →→;", "%spellout-numbering", esRbnf],
    ["fr", "-x", "moins →→;", "%spellout-cardinal-masculine", frRbnf],
    ["de", "x.x", "←← Komma →→;", "%spellout-numbering", deRbnf],
    ["hi", "-x", "ऋण →→;", "%spellout-cardinal", hiRbnf],
    ["hi", "x.x", "←← दशमलव →→;", "%spellout-cardinal", hiRbnf],
  ])("%s's %s rule is CLDR's (%s)", (_language, key, body, set, file) => {
    expect(rulesOf(file)[set]?.find(([k]) => k === key)?.[1]).toBe(body);
  });

  it.each(["es", "fr", "de"])("%s refuses the Indian grouping", async (language) => {
    expect(await refusal({ number: 5, language, system: "indian" })).toContain("indian");
  });
});

describe("numtoword languages: ordinals against CLDR's spell-out rules", () => {
  it("German 1–999,999 reads as CLDR's %spellout-ordinal", async () => {
    for (let value = 1n; value < 1_000_000n; value += value < 2100n ? 1n : 7919n) {
      expect(await words({ number: value.toString(), mode: "ordinal", language: "de" }), `${value}`).toBe(
        spellOut(DE, "%spellout-ordinal", value),
      );
    }
    expect(await words({ number: 999_999, mode: "ordinal", language: "de" })).toBe(
      spellOut(DE, "%spellout-ordinal", 999_999n),
    );
  });

  it("Spanish 1–999 reads as CLDR's %spellout-ordinal-masculine, with the RAE's octingentésimo", async () => {
    for (let value = 1n; value < 1000n; value++) {
      // CLDR writes "octingésimo"; the RAE's word for 800th is octingentésimo (DPD, "ordinales").
      const expected = spellOut(ES, "%spellout-ordinal-masculine", value).replace("octingésimo", "octingentésimo");
      expect(await words({ number: value.toString(), mode: "ordinal", language: "es" }), `${value}`).toBe(expected);
    }
  });

  it("French 1–999,999 reads as CLDR's %spellout-ordinal-masculine, in traditional spelling and without CLDR's stray et", async () => {
    for (let value = 1n; value < 1_000_000n; value += value < 2100n ? 1n : 7919n) {
      // Our cardinals write "vingt et un" (traditional), CLDR "vingt-et-un"; and CLDR puts "et"
      // into 81st, 91st, 101st, 1001st…, where French has none: quatre-vingt-unième, cent
      // unième, mille unième (Grevisse, Le Bon Usage: "et" only in 21–71; "mille et un"
      // is the idiom for "very many", not the number).
      const expected = spellOut(FR, "%spellout-ordinal-masculine", value)
        .replace(/(quatre-vingt|cent|mille)-et-/g, (_, head: string) =>
          head === "quatre-vingt" ? `${head}-` : `${head} `,
        )
        .replace(/-et-/g, " et ");
      expect(await words({ number: value.toString(), mode: "ordinal", language: "fr" }), `${value}`).toBe(expected);
    }
  });

  it("Hindi reads as CLDR's %spellout-ordinal-masculine over the whole range", async () => {
    for (let value = 1n; value <= 120n; value++) {
      expect(await words({ number: value.toString(), mode: "ordinal", language: "hi" })).toBe(
        spellOut(HI, "%spellout-ordinal-masculine", value),
      );
    }
    await fc.assert(
      fc.asyncProperty(fc.bigInt({ min: 1n, max: 10n ** 21n - 1n }), async (value) => {
        expect(await words({ number: value.toString(), mode: "ordinal", language: "hi" })).toBe(
          spellOut(HI, "%spellout-ordinal-masculine", value),
        );
      }),
      { numRuns: 100 },
    );
  });

  it.each([
    ["es", "0", "1 to 999"],
    ["es", "-3", "1 to 999"],
    ["es", "1000", "1 to 999"],
    ["fr", "1000000", "1 to 999999"],
    ["de", "0", "1 to 999999"],
    ["hi", "0", "positive"],
    ["hi", "-1", "positive"],
    ["de", "2.5", "whole numbers"],
  ])("%s refuses the ordinal of %s (%s)", async (language, number, message) => {
    expect(await refusal({ number, mode: "ordinal", language })).toContain(message);
  });
});

describe("numtoword languages: currency", () => {
  it.each([
    ["es", "21.50", "EUR", "veintiún euros con cincuenta céntimos"],
    ["es", "1", "EUR", "un euro"],
    ["es", "0.01", "EUR", "un céntimo"],
    ["es", "1000000", "EUR", "un millón de euros"],
    ["es", "2000000.21", "EUR", "dos millones de euros con veintiún céntimos"],
    ["es", "-101000", "EUR", "menos ciento un mil euros"],
    ["fr", "21.50", "EUR", "vingt et un euros et cinquante centimes"],
    ["fr", "0", "EUR", "zéro euro"],
    ["fr", "1.01", "EUR", "un euro et un centime"],
    ["fr", "1000000", "EUR", "un million d'euros"],
    ["fr", "80", "EUR", "quatre-vingts euros"],
    ["de", "1.01", "EUR", "ein Euro und ein Cent"],
    ["de", "101", "EUR", "einhundertein Euro"],
    ["de", "2000000", "EUR", "zwei Millionen Euro"],
    ["hi", "1", "INR", "एक रुपया"],
    ["hi", "21.01", "INR", "इक्कीस रुपये एक पैसा"],
    ["hi", "12345678.50", "INR", "एक करोड़ तेईस लाख पैंतालीस हज़ार छह सौ अठहत्तर रुपये पचास पैसे"],
  ])("%s: %s %s is %s", async (language, number, currency, expected) => {
    const result = await spell({ number, mode: "currency", currency, language });
    expect(result).toEqual({ words: expected, number: result.number, mode: "currency", currency });
  });

  it.each([
    ["es", "USD", "EUR"],
    ["de", "INR", "EUR"],
    ["hi", "EUR", "INR"],
  ])("%s refuses %s, naming %s", async (language, currency, supported) => {
    expect(await refusal({ number: 5, mode: "currency", currency, language })).toContain(supported);
  });

  it("refuses more decimals than the currency has, in every language", async () => {
    expect(await refusal({ number: "1.005", mode: "currency", currency: "EUR", language: "fr" })).toContain(
      "2 decimal places",
    );
  });
});
