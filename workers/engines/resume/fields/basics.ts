/**
 * The person: name, headline, contacts, place and summary, read from the header (the lines
 * before the first heading, in each column) and any "Contact" section. The name is the largest
 * name-like line there (or the paragraph styled Title), the label the line under it.
 */
import type { ParsedResume } from "~workers/hosted/capabilities";
import type { Line } from "../lines";
import type { Section } from "../sections";
import { findEmail, findPhone, findUrls, readLocation } from "./contact";
import { findDateRange } from "./dates";

type Basics = ParsedResume["basics"];

const NAME = /^[\p{Lu}][\p{L}'’.-]*(?:\s+[\p{L}][\p{L}'’.-]*){1,4}$/u;
const PART_SEPARATOR = /\s*(?:[|•·▪●]|\s[–—-]\s)\s*/;
const PHONE_LABEL =
  /^(?:phone|tel|tél|telephone|téléphone|telefon|handy|mobil|mobile|cell|teléfono|telefono|móvil|movil)\.?\s*:?\s*/i;

const looksLikeName = (line: Line) =>
  line.text.length <= 50 && NAME.test(line.text) && !findEmail(line.text) && !readLocation(line.text);

export function readBasics(sections: readonly Section[], allLines: readonly Line[]): Basics {
  const heading = sections.filter((section) => section.kind === "header" || section.kind === "contact");
  const headerLines = heading.flatMap((section) => section.lines);
  const parts = headerLines
    .flatMap((line) => line.parts.flatMap((part) => part.split(PART_SEPARATOR)))
    .map((part) => part.trim());

  const titled = headerLines.find((line) => line.styled === "title");
  const candidates = headerLines.filter(looksLikeName);
  let name: Line | undefined = titled ?? candidates[0];
  for (const candidate of candidates) if (name && candidate.fontSize > name.fontSize + 0.5) name = candidate;

  let label: string | null = null;
  if (name) {
    const section = heading.find((s) => s.lines.includes(name!));
    const next = section?.lines[section.lines.indexOf(name) + 1];
    if (
      next &&
      next.text.split(/\s+/).length <= 15 &&
      !findEmail(next.text) &&
      !findPhone(next.text) &&
      !findUrls(next.text).length &&
      !readLocation(next.text) &&
      !findDateRange(next.text)
    )
      label = next.text;
  }

  const email =
    firstOf(parts, findEmail) ??
    firstOf(
      allLines.map((l) => l.text),
      findEmail,
    );
  const phone =
    firstOf(
      parts.map((part) => part.replace(PHONE_LABEL, "")),
      findPhone,
    ) ??
    firstOf(
      allLines
        .map((l) => l.text)
        .filter((text) => PHONE_LABEL.test(text))
        .map((text) => text.replace(PHONE_LABEL, "")),
      findPhone,
    );
  const profiles: Basics["profiles"] = [];
  for (const line of allLines) {
    for (const found of findUrls(line.text)) {
      if (found.profile && !profiles.some((p) => p.url === found.profile!.url)) profiles.push(found.profile);
    }
  }
  const url = headerLines.flatMap((line) => findUrls(line.text)).find((found) => !found.profile)?.url ?? null;
  const location = firstOf(parts, readLocation);

  let summary: string | null =
    sections
      .filter((section) => section.kind === "summary")
      .flatMap((section) => section.lines.map((line) => line.text))
      .join(" ") || null;
  // No "Summary" heading: a paragraph of prose in the header is one.
  summary ??=
    headerLines
      .filter((line) => line.text.split(/\s+/).length > 12 && !findEmail(line.text))
      .map((l) => l.text)
      .join(" ") || null;

  return { name: name?.text ?? null, label, email, phone, url, location, profiles, summary };
}

function firstOf<T>(texts: readonly string[], read: (text: string) => T | null): T | null {
  for (const text of texts) {
    const found = read(text);
    if (found) return found;
  }
  return null;
}
