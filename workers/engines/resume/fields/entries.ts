/**
 * Work and education entries. A section is cut into entries at its date ranges: each range
 * belongs to one entry, whose heading lines (title, company, school, degree) sit just above it
 * or beside it, and whose body (bullets, sentences) runs until the next entry's heading. Which
 * heading piece is the job title and which the employer is read from the words (titles name a
 * role, employers carry a legal form or are what is left), not from a fixed order, since
 * résumés put either first (LinkedIn: employer, then title).
 */
import type { Line } from "../lines";
import { findDateRange, findSingleDate, tidy, withoutRange, type FoundRange } from "./dates";
import { readLocation } from "./contact";

const BULLET = /^[•▪●◦‣∙·*–—-]\s*/;

export const isBullet = (line: Line) => Boolean(line.listItem) || BULLET.test(line.text);
const stripBullet = (text: string) => text.replace(BULLET, "").trim();

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** A body line: a bullet or a sentence, not a heading of an entry. */
const isProse = (line: Line, bodySize: number) =>
  isBullet(line) ||
  words(line.text) > 12 ||
  (/[.!?]$/.test(line.text) && words(line.text) > 5) ||
  (bodySize > 0 && line.fontSize > 0 && line.fontSize < bodySize - 0.6 && words(line.text) > 6);

/** A piece of an entry's heading; `town` when it followed an employer's comma. */
interface Piece {
  text: string;
  town?: boolean;
}

interface Block {
  /** Heading lines' pieces, in order, the dates cut out. */
  pieces: Piece[];
  range: FoundRange | null;
  body: Line[];
}

/** Cuts a section's lines into entries at their date ranges (or, without any, at bold/large lines). */
function blocks(lines: readonly Line[], bodySize: number, single: boolean, towns: boolean): Block[] {
  const ranges = lines.map((line) =>
    isBullet(line) ? null : (findDateRange(line.text) ?? (single ? singleDate(line) : null)),
  );
  const anchors = ranges.flatMap((range, index) => (range ? [index] : []));
  if (!anchors.length) return [];
  const result: Block[] = [];
  let taken = 0; // lines before this index belong to earlier entries
  anchors.forEach((anchor, n) => {
    // Heading lines above the dates: short, not prose, at most three, not another entry's.
    let start = anchor;
    while (start > taken && anchor - start < 3) {
      const above = lines[start - 1]!;
      if (isProse(above, bodySize) || ranges[start - 1]) break;
      start--;
    }
    // The previous entry's body ends where this one's heading starts (`taken` is past the lines
    // its own heading took after its dates, such as a location).
    const previous = result.at(-1);
    if (previous) previous.body = lines.slice(taken, start);
    const range = ranges[anchor]!;
    const dateLine = lines[anchor]!;
    const block: Block = { pieces: [], range, body: [] };
    for (const line of lines.slice(start, anchor)) block.pieces.push(...piecesOf(line.parts, towns));
    const rest = dateLinePieces(dateLine, range, towns);
    block.pieces.push(...rest);
    let next = anchor + 1;
    // Short lines after the dates may still head the entry: a location, an employer when the
    // dates sat beside the title, or title and employer both when the dates came first (a
    // German Lebenslauf's date column).
    const nextAnchor = anchors[n + 1] ?? lines.length;
    const most = block.pieces.length === 0 ? 2 : 1;
    for (let extra = 0; extra < most; extra++) {
      const following = lines[next];
      if (
        !following ||
        next >= nextAnchor ||
        isProse(following, bodySize) ||
        !(readLocation(following.text) || block.pieces.length < 2 || /^remote|^hybrid/i.test(following.text)) ||
        // ...unless it is the next entry's heading (the next dates follow it directly).
        (next + 1 === nextAnchor && block.pieces.length >= 1)
      )
        break;
      block.pieces.push(...piecesOf(following.parts, towns));
      next++;
    }
    taken = next;
    result.push(block);
  });
  const last = result.at(-1);
  if (last) last.body = lines.slice(taken);
  return result;
}

function singleDate(line: Line): FoundRange | null {
  const found = findSingleDate(line.text);
  // A lone year is a date only on a short line (not "5 years of Python since 2019").
  return found && words(line.text) <= 12 ? found : null;
}

function dateLinePieces(line: Line, range: FoundRange, towns: boolean): Piece[] {
  const rest = withoutRange(line.text, range);
  if (!rest) return [];
  // Keep the line's own pieces where the dates were one of them.
  const pieces = line.parts.filter((part) => !findDateRange(part) && !findSingleDate(part));
  return piecesOf(pieces.length ? pieces : [rest], towns);
}

/** A town after an employer's comma: a few capitalised words ("London", "Frankfurt am Main"). */
const TOWN = /^\p{Lu}[\p{L}'’.-]+(?:\s+(?:am|an|der|de|del|la|le|sur|upon|on)?\s*\p{Lu}[\p{L}'’.-]+){0,2}$/u;

/**
 * "Senior Engineer | Acme Corp — Berlin, Germany" → its pieces; a place kept whole. With
 * `towns`, "Monzo Bank Ltd, London" is an employer and its town (work entries); a school's
 * name keeps its comma ("University of California, Berkeley").
 */
function piecesOf(parts: readonly string[], towns = false): Piece[] {
  const out: Piece[] = [];
  for (const part of parts) {
    for (const piece of part.split(/\s+[|·•–—]\s+|\s+-\s+|\s+at\s+|\s+@\s+|\s+bei\s+|\s+chez\s+|\s+en\s+(?=\p{Lu})/u)) {
      const text = tidy(piece);
      if (!text) continue;
      const comma = text.indexOf(", ");
      const after = text.slice(comma + 2);
      if (comma > 0 && !readLocation(text) && readLocation(after))
        out.push({ text: text.slice(0, comma) }, { text: after });
      else if (comma > 0 && towns && !readLocation(text)) {
        const before = text.slice(0, comma);
        // "Senior Engineer, Acme Corp": a title, then its employer.
        if (TITLE_WORDS.test(before) && !LEGAL_FORM.test(before)) out.push({ text: before }, { text: after });
        else if (TOWN.test(after) && !LEGAL_FORM.test(after) && !COMPANY_WORDS.test(after))
          out.push({ text: before }, { text: after, town: true });
        else out.push({ text });
      } else out.push({ text });
    }
  }
  return out;
}

const TITLE_WORDS =
  /(?<![\p{L}\d])(?:engineer|developer|programmer|manager|director|head|lead|leader|intern|internship|analyst|designer|consultant|architect|scientist|specialist|officer|assistant|associate|coordinator|administrator|owner|founder|co-founder|president|vp|ceo|cto|cfo|coo|partner|advisor|adviser|researcher|teacher|lecturer|professor|technician|accountant|editor|writer|marketer|recruiter|representative|agent|nurse|student|trainee|apprentice|devops|sre|administrat\p{L}+|\p{L}*entwickler\p{L}*|\p{L}*ingenieur\p{L}*|\p{L}*leiter\p{L}*|\p{L}*berater\p{L}*|werkstudent\p{L}*|praktikant\p{L}*|referent\p{L}*|sachbearbeiter\p{L}*|projektleiter\p{L}*|geschäftsführer\p{L}*|mitarbeiter\p{L}*|ingénieur\p{L}*|développeur\p{L}*|chef|responsable|directeur\p{L}*|directrice|stagiaire|chargée?|analyste|consultante?|gérant\p{L}*|desarrollador\p{L}*|ingenier[oa]|gerente|jef[ea]|analista|consultor\p{L}*|director[a]?|becari[oa]|técnic[oa]|diseñador\p{L}*|programador\p{L}*)(?![\p{L}\d])/iu;
/** A legal form names an employer whatever else the words say ("Product Labs GmbH"). */
const LEGAL_FORM =
  /(?:^|[\s,])(?:inc|llc|l\.l\.c|ltd|limited|gmbh|ag|se|kg|ohg|ug|sa|s\.a|sas|sarl|sàrl|srl|s\.l|sl|bv|b\.v|nv|plc|corp|corporation|co|kgaa|e\.v|mbh)\.?(?=$|[\s,)])/iu;
const COMPANY_WORDS =
  /(?<![\p{L}\d])(?:company|société|societe|sociedad|compagnie|compañía|unternehmen|group|gruppe|groupe|grupo|bank|banque|banco|labs?|technologies|technology|systems|solutions|software|consulting|studio|agency|agentur|partners|holding|foundation|stiftung|university|universität|université|universidad|hospital|institute|institut|ministry)(?![\p{L}\d])\.?/iu;

function classifyWork(pieces: readonly Piece[]): {
  position: string | null;
  name: string | null;
  location: string | null;
} {
  let position: string | null = null;
  let name: string | null = null;
  let location: string | null = null;
  const rest: string[] = [];
  for (const { text: piece, town } of pieces) {
    if (!location && (town || readLocation(piece) || /^(?:remote|hybrid|homeoffice|télétravail|remoto)$/i.test(piece)))
      location = piece;
    else if (!name && LEGAL_FORM.test(piece)) name = piece;
    else if (!name && COMPANY_WORDS.test(piece) && !TITLE_WORDS.test(piece)) name = piece;
    else if (!position && TITLE_WORDS.test(piece) && !COMPANY_WORDS.test(piece)) position = piece;
    else rest.push(piece);
  }
  for (const piece of rest) {
    if (!position && TITLE_WORDS.test(piece)) position = piece;
    else if (!name) name = piece;
    else if (!position) position = piece;
  }
  return { position, name, location };
}

export interface WorkEntry {
  name: string | null;
  position: string | null;
  location: string | null;
  startDate: string | null;
  endDate: string | null;
  summary: string | null;
  highlights: string[];
}

/** Bullets become highlights (their wrapped lines joined); other body lines the summary. */
function readBody(body: readonly Line[]): { summary: string | null; highlights: string[] } {
  const highlights: string[] = [];
  const summary: string[] = [];
  let inBullet = false;
  for (const line of body) {
    if (isBullet(line)) {
      highlights.push(stripBullet(line.text));
      inBullet = true;
    } else if (inBullet && highlights.length && !/[.!?]$/.test(highlights.at(-1)!)) {
      highlights[highlights.length - 1] += ` ${line.text}`;
    } else {
      summary.push(line.text);
      inBullet = false;
    }
  }
  return { summary: summary.length ? summary.join(" ") : null, highlights };
}

export function readWork(lines: readonly Line[], bodySize: number): WorkEntry[] {
  return blocks(lines, bodySize, false, true).map((block) => ({
    ...classifyWork(block.pieces),
    startDate: block.range?.startDate ?? null,
    endDate: block.range?.endDate ?? null,
    ...readBody(block.body),
  }));
}

const INSTITUTION_WORDS =
  /(?<![\p{L}\d])(?:university|universität|universitat|université|universite|universidad|universidade|università|college|school|schule|gymnasium|lycée|lycee|hochschule|fachhochschule|institute|institut|instituto|academy|akademie|académie|école|ecole|escuela|polytechnic|politécnica|polytechnique|tu|eth|epfl|mit|conservatory|seminar)(?![\p{L}\d])/iu;
const DEGREE =
  /(?<![\p{L}\d])(?:(?:bachelor|master|doctor|associate)(?:'s)?(?:\s+of\s+(?:science|arts|engineering|business administration|laws|fine arts|education|philosophy))?|b\.?\s?sc\.?|m\.?\s?sc\.?|b\.?\s?a\.?|m\.?\s?a\.?|b\.?\s?s\.?|m\.?\s?s\.?|b\.?\s?eng\.?|m\.?\s?eng\.?|mba|ph\.?\s?d\.?|dr\.|diplom(?:-[\p{L}]+)?|diploma|diplôme(?:\s+d['’][\p{L}]+)?|licence|licenciatura|licenciado|grado|máster|master|doctorado|doctorat|abitur|baccalauréat|bac|magister|staatsexamen|ingénieur|ingeniería|ingeniero|hnd|a-levels|high school diploma|ged)(?![\p{L}])/iu;

export interface EducationEntry {
  institution: string | null;
  area: string | null;
  studyType: string | null;
  startDate: string | null;
  endDate: string | null;
  score: string | null;
}

const SCORE =
  /\b(?:gpa|grade|note|abschlussnote|mention|nota|calificación|score)\s*[:\-]?\s*([^\s,;|]+(?:\s*\/\s*[\d.,]+)?(?:\s+(?:très bien|bien|assez bien|sehr gut|gut|cum laude|magna cum laude|summa cum laude))?)/iu;

const HONOURS =
  /,\s*(?:with\s+)?(?:distinction|merit|first[- ]class(?:\s+honou?rs)?|upper second|lower second|2:1|2:2|honou?rs|(?:summa |magna )?cum laude|mit auszeichnung|mention (?:très bien|bien|assez bien)|matrícula de honor|sobresaliente)(?![\p{L}]).*$/iu;

/** "Master of Science - MS, Computer Science" → studyType and area. */
function readDegree(text: string): { studyType: string; area: string | null } | null {
  const match = DEGREE.exec(text);
  if (!match) return null;
  const studyType = match[0].trim();
  let area = text
    .slice(match.index + match[0].length)
    .replace(/^\s*(?:-\s*[A-Z]{2,4}\b)?/, "") // LinkedIn's " - MS" after the degree's name
    .replace(/^\s*(?:in|of|en|de|im|in the field of|,|:|-|–|—)\s+/i, "")
    .replace(/^[,:\-–—\s]+/, "");
  area = tidy(area.replace(SCORE, ""))
    .replace(/^\(|\)$/g, "")
    .trim();
  // "MSc Management, Distinction": the honours are a score, not part of the field.
  const honours = HONOURS.exec(area);
  if (honours) area = tidy(area.slice(0, honours.index));
  const before = tidy(text.slice(0, match.index));
  if (!area && before && !INSTITUTION_WORDS.test(before)) area = before;
  return { studyType, area: area || null };
}

export function readEducation(lines: readonly Line[], bodySize: number): EducationEntry[] {
  let found = blocks(lines, bodySize, true, false);
  if (!found.length) {
    // Entries without dates: one per line naming a school.
    found = lines
      .filter((line) => INSTITUTION_WORDS.test(line.text))
      .map((line) => ({
        pieces: piecesOf(line.parts),
        range: null,
        body: [],
      }));
  }
  return found.map((block) => {
    let institution: string | null = null;
    let degree: { studyType: string; area: string | null } | null = null;
    let score: string | null = null;
    const others: string[] = [];
    const texts = [...block.pieces.map((piece) => piece.text), ...block.body.map((line) => line.text)];
    for (const text of texts) {
      const scored = SCORE.exec(text);
      if (scored && !score) score = scored[1]!.trim();
      const honours = HONOURS.exec(text);
      if (honours && !score) score = tidy(honours[0]);
      if (!institution && INSTITUTION_WORDS.test(text) && !DEGREE.exec(text)) institution = text;
      else if (!degree && DEGREE.test(text)) degree = readDegree(text);
      else if (!readLocation(text) && !scored) others.push(text);
    }
    institution ??= others.shift() ?? null;
    // LinkedIn: "Master of Science - MS, Management" cuts into the degree and "MS, Management".
    if (degree && !degree.area && others.length && block.pieces.some((p) => p.text === others[0]))
      degree.area = others[0]!.replace(/^[A-Z]{2,5}\.?,\s+/, "");
    return {
      institution,
      area: degree?.area ?? null,
      studyType: degree?.studyType ?? null,
      startDate: block.range?.startDate ?? null,
      endDate: block.range?.endDate ?? null,
      score,
    };
  });
}
