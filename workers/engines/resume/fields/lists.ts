/**
 * Skills, languages and certificates: lists, one item per line or several per line separated
 * by commas, bullets, pipes or semicolons. A skills line "Languages: Python, Go" is a group
 * (JSON Resume's `{name, keywords}`); a language item carries its fluency in parentheses or
 * after a dash or colon ("French (Native or Bilingual)", "Deutsch – Muttersprache", "English: C1").
 */
import type { Line } from "../lines";
import { findDateRange, findSingleDate, tidy, withoutRange } from "./dates";

const SEPARATORS = /\s*(?:[,;|•·▪●]|\s-\s|\s–\s)\s*/;

/** A list item without its bullet and its closing punctuation (trimmed by hand: `[.;,]+$` is tried from every start). */
function item(text: string): string {
  const unbulleted = text.replace(/^[•▪●◦‣∙·*–—-]\s*/, "");
  let end = unbulleted.length;
  while (end > 0 && ".;,".includes(unbulleted[end - 1]!)) end--;
  return unbulleted.slice(0, end).trim();
}

/** Splits on separators outside parentheses ("Python (Django, Flask), Go" has two items). */
function splitItems(text: string, separators = SEPARATORS): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = "";
  const global = new RegExp(separators.source, "y");
  for (let at = 0; at < text.length;) {
    const char = text[at]!;
    if (char === "(") depth++;
    if (char === ")") depth = Math.max(0, depth - 1);
    global.lastIndex = at;
    const match = depth === 0 ? global.exec(text) : null;
    if (match && match[0].length > 0) {
      out.push(current);
      current = "";
      at += match[0].length;
      continue;
    }
    current += char;
    at++;
  }
  out.push(current);
  return out.map(item).filter((piece) => piece.length > 0 && piece.length <= 80);
}

export function readSkills(lines: readonly Line[]): { name: string; keywords: string[] }[] {
  const skills: { name: string; keywords: string[] }[] = [];
  for (const line of lines) {
    const text = line.text;
    const group = /^([^:]{2,40}):\s*(.+)$/.exec(text);
    if (group) {
      skills.push({ name: item(group[1]!), keywords: splitItems(group[2]!) });
      continue;
    }
    // A sentence is not a list of skills.
    if (text.split(/\s+/).length > 14 && !/[,;|•·]/.test(text)) continue;
    for (const name of splitItems(line.parts.join(" | "))) skills.push({ name, keywords: [] });
  }
  return skills;
}

const FLUENCY_WORDS =
  /native|bilingual|fluent|proficient|professional|working|elementary|limited|intermediate|advanced|basic|beginner|conversational|mother tongue|muttersprache|fließend|fliessend|verhandlungssicher|gut|sehr gut|grundkenntnisse|langue maternelle|courant|bilingue|notions|intermédiaire|avancé|lengua materna|nativo|nativa|fluido|avanzado|intermedio|básico|\b[abc][12]\b/i;

export function readLanguages(lines: readonly Line[]): { language: string; fluency: string | null }[] {
  const languages: { language: string; fluency: string | null }[] = [];
  for (const line of lines) {
    for (const piece of splitItems(line.parts.join(" | "), /\s*(?:[,;|•·▪●])\s*/)) {
      const parenthesised = /^(.+?)\s*\((.+)\)$/.exec(piece);
      const separated = /^(.+?)\s*(?::|\s[-–—]\s)\s*(.+)$/.exec(piece);
      const match = parenthesised ?? separated;
      if (match) languages.push({ language: match[1]!.trim(), fluency: match[2]!.trim() });
      else if (FLUENCY_WORDS.test(piece) && languages.length && languages.at(-1)!.fluency === null) {
        // "English" then, on its own line, "Native": the fluency of the line above.
        languages.at(-1)!.fluency = piece;
      } else if (piece.split(/\s+/).length <= 3) languages.push({ language: piece, fluency: null });
    }
  }
  return languages;
}

export function readCertificates(
  lines: readonly Line[],
): { name: string; date: string | null; issuer: string | null }[] {
  return lines.flatMap((line) => {
    let text = item(line.text);
    let date: string | null = null;
    const range = findDateRange(text) ?? findSingleDate(text);
    if (range) {
      date = range.endDate ?? range.startDate;
      text = withoutRange(text, range);
    }
    text = tidy(text.replace(/\(\s*\)/g, ""));
    if (!text) return [];
    const pieces = text
      .split(/\s*(?:,|\||—|\s-\s|\bby\b|\bvon\b|\bpar\b|\bpor\b)\s*/)
      .map((piece) => piece.trim())
      .filter(Boolean);
    const name = pieces.length > 1 ? pieces.slice(0, -1).join(", ") : text;
    return [{ name, date, issuer: pieces.length > 1 ? pieces.at(-1)! : null }];
  });
}
