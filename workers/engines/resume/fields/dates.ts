/**
 * Dates as résumés write them, in English, German, French and Spanish, read into ISO 8601
 * partial dates (`2020`, `2020-03`), the form JSON Resume uses: "Jan 2020 – Present",
 * "03/2019 - 06/2021", "März 2020 – heute", "janv. 2020 – actuel", "2018–2020",
 * "enero de 2019 - actualidad", "seit 2021". A range's open end ("Present") is null.
 */

const MONTHS: Record<string, number> = {};
const monthNames: [number, string[]][] = [
  [1, ["january", "jan", "januar", "janner", "jänner", "janvier", "janv", "enero", "ene"]],
  [2, ["february", "feb", "februar", "febr", "fevrier", "février", "fevr", "févr", "fev", "fév", "febrero"]],
  [3, ["march", "mar", "märz", "mär", "marz", "maerz", "mrz", "mars", "marzo"]],
  [4, ["april", "apr", "avril", "avr", "abril", "abr"]],
  [5, ["may", "mai", "mayo"]],
  [6, ["june", "jun", "juni", "juin", "junio"]],
  [7, ["july", "jul", "juli", "juillet", "juil", "julio"]],
  [8, ["august", "aug", "aout", "août", "agosto", "ago"]],
  [9, ["september", "sep", "sept", "septembre", "septiembre", "setiembre", "set"]],
  [10, ["october", "oct", "oktober", "okt", "octobre", "octubre"]],
  [11, ["november", "nov", "novembre", "noviembre"]],
  [12, ["december", "dec", "dezember", "dez", "decembre", "décembre", "déc", "diciembre", "dic"]],
];
for (const [month, names] of monthNames) for (const name of names) MONTHS[name] = month;

/** Words for "until now", lower case. */
const PRESENT = [
  "present",
  "current",
  "currently",
  "now",
  "today",
  "ongoing",
  "date",
  "heute",
  "bis heute",
  "aktuell",
  "jetzt",
  "derzeit",
  "laufend",
  "actuel",
  "actuellement",
  "aujourd'hui",
  "aujourd’hui",
  "présent",
  "en cours",
  "actualidad",
  "actualmente",
  "presente",
  "hoy",
  "la fecha",
  "la actualidad",
];

const alternation = (words: string[]) =>
  [...words]
    .sort((a, b) => b.length - a.length)
    .map((word) => word.replace(/[.*+?^${}()|[\]\\']/g, "\\$&").replace("\\'", "['’]"))
    .join("|");

const MONTH = `(?:${alternation(Object.keys(MONTHS))})\\.?`;
const YEAR = "(?:19|20)\\d{2}";
/** One date: "Jan 2020", "enero de 2020", "03/2019", "2019-03", "2019". */
const DATE = `(?:${MONTH}\\s*(?:de\\s+)?'?${YEAR}|(?:0?[1-9]|1[0-2])\\s*[/.\\-]\\s*${YEAR}|${YEAR}\\s*[/\\-]\\s*(?:0[1-9]|1[0-2])(?![\\d])|${YEAR})`;
const PRESENT_PATTERN = `(?:${alternation(PRESENT)})`;
const SEPARATOR = "\\s*(?:[-–—‒]+|\\bto\\b|\\bbis\\b|\\bà\\b|\\ba\\b|\\bau\\b|\\bhasta\\b|\\buntil\\b|\\btill\\b)\\s*";
const SINCE = "(?:since|seit|depuis|desde)\\s+";

const RANGE = new RegExp(
  `(?<![\\p{L}\\d])(?:(${DATE})${SEPARATOR}(${DATE}|${PRESENT_PATTERN})|${SINCE}(${DATE}))(?![\\p{L}\\d])`,
  "iu",
);
const SINGLE = new RegExp(`(?<![\\p{L}\\d])(${DATE})(?![\\p{L}\\d])`, "iu");
const PRESENT_ONLY = new RegExp(`^${PRESENT_PATTERN}$`, "iu");

/** One written date as an ISO partial date, or null ("Present", or not a date). */
export function isoDate(written: string): string | null {
  const text = written.trim().toLowerCase().replace(/\s+/g, " ");
  if (PRESENT_ONLY.test(text)) return null;
  let match = /^(\d{1,2})\s*[/.-]\s*(\d{4})$/.exec(text);
  if (match) return `${match[2]}-${match[1]!.padStart(2, "0")}`;
  match = /^(\d{4})\s*[/-]\s*(\d{2})$/.exec(text);
  if (match) return `${match[1]}-${match[2]}`;
  match = /^(\d{4})$/.exec(text);
  if (match) return match[1]!;
  match = /^([\p{L}]+)\.?\s*(?:de\s+)?'?(\d{4})$/u.exec(text);
  if (match) {
    const month = MONTHS[match[1]!];
    if (month) return `${match[2]}-${String(month).padStart(2, "0")}`;
  }
  return null;
}

export interface FoundRange {
  startDate: string | null;
  endDate: string | null;
  /** Where the range was written in the text, to cut it out of a line. */
  index: number;
  length: number;
}

/** The first date range in a text ("Jan 2020 – Present", "seit 2021"), or null. */
export function findDateRange(text: string): FoundRange | null {
  const match = RANGE.exec(text);
  if (!match) return null;
  if (match[3] !== undefined) {
    return { startDate: isoDate(match[3]), endDate: null, index: match.index, length: match[0].length };
  }
  const startDate = isoDate(match[1]!);
  const endDate = isoDate(match[2]!);
  if (startDate === null) return null;
  // A year span "2018-2020" reads as a range; a phone fragment "2018-2019" with nothing else rarely does.
  if (endDate !== null && endDate < startDate) return null;
  return { startDate, endDate, index: match.index, length: match[0].length };
}

/** The first lone date in a text ("2019", "06/2021"), as a range that ends then. */
export function findSingleDate(text: string): FoundRange | null {
  const match = SINGLE.exec(text);
  if (!match) return null;
  const date = isoDate(match[1]!);
  if (date === null) return null;
  return { startDate: null, endDate: date, index: match.index, length: match[0].length };
}

/** A text with a found range cut out, and the separators and parentheses it leaves trimmed. */
export function withoutRange(text: string, range: FoundRange): string {
  return tidy(text.slice(0, range.index) + " " + text.slice(range.index + range.length));
}

/** What a cut leaves at a piece's start, and at its end (an opening parenthesis too); space in both. */
const LEADING = new Set(" |,;·•–—-");
const TRAILING = new Set(" |,;·•–—(-");

/** Trims separators, empty parentheses and durations ("(3 years 9 months)") a cut leaves behind. */
export function tidy(text: string): string {
  const squashed = text
    .replace(
      /\(\s*\d+\s+(?:years?|yrs?|months?|mos?|jahre?n?|monate?n?|ans?|mois|años?|meses?)(?:\s+\d+\s+\p{L}+)?\s*\)/giu,
      " ",
    )
    .replace(/\(\s*\)/g, " ")
    .replace(/\s+/g, " ");
  // Trimmed by hand: a pattern anchored at the end (`[…]+$`) is tried from every start, so a line
  // ending in a long run of separators and then a word cost the square of its length.
  let start = 0;
  let end = squashed.length;
  while (start < end && LEADING.has(squashed[start]!)) start++;
  while (end > start && TRAILING.has(squashed[end - 1]!)) end--;
  return squashed.slice(start, end);
}
