/**
 * Sections by their headings, not by one template: a heading is a short line (bold, larger,
 * all capitals, styled as one, or simply alone) whose words are one of the headings résumés use
 * in English, German, French or Spanish. LinkedIn's PDF export uses the same words ("Contact",
 * "Top Skills", "Summary", "Experience"). Lines before the first heading of a column are the
 * header (name, title, contacts); a new column starts a header of its own, since a sidebar's
 * last section does not run on into the main column.
 */
import type { Line } from "./lines";

export type SectionKind =
  "header" | "contact" | "summary" | "work" | "education" | "skills" | "languages" | "certificates" | "other";

const HEADINGS: Record<Exclude<SectionKind, "header">, string[]> = {
  contact: [
    "contact",
    "contacts",
    "contact information",
    "contact info",
    "contact details",
    "personal details",
    "personal information",
    "kontakt",
    "kontaktdaten",
    "kontaktinformationen",
    "personliche daten",
    "persoenliche daten",
    "coordonnees",
    "informations personnelles",
    "contacto",
    "datos de contacto",
    "datos personales",
    "informacion de contacto",
  ],
  summary: [
    "summary",
    "profile",
    "professional summary",
    "professional profile",
    "career summary",
    "executive summary",
    "about",
    "about me",
    "objective",
    "career objective",
    "personal statement",
    "profil",
    "kurzprofil",
    "zusammenfassung",
    "uber mich",
    "ueber mich",
    "berufsprofil",
    "profil professionnel",
    "resume",
    "a propos",
    "a propos de moi",
    "objectif",
    "perfil",
    "perfil profesional",
    "resumen",
    "resumen profesional",
    "sobre mi",
    "acerca de mi",
    "extracto",
    "objetivo",
  ],
  work: [
    "experience",
    "experiences",
    "work experience",
    "professional experience",
    "relevant experience",
    "employment",
    "employment history",
    "work history",
    "career history",
    "career",
    "professional background",
    "berufserfahrung",
    "berufliche erfahrung",
    "berufliche erfahrungen",
    "beruflicher werdegang",
    "berufliche laufbahn",
    "werdegang",
    "praxiserfahrung",
    "experience professionnelle",
    "experiences professionnelles",
    "parcours professionnel",
    "experiencia",
    "experiencia laboral",
    "experiencia profesional",
    "historial laboral",
    "trayectoria profesional",
  ],
  education: [
    "education",
    "education and training",
    "academic background",
    "academic history",
    "studies",
    "training",
    "ausbildung",
    "bildung",
    "bildungsweg",
    "studium",
    "schulbildung",
    "akademische ausbildung",
    "schul und berufsausbildung",
    "formation",
    "formations",
    "parcours academique",
    "etudes",
    "diplomes",
    "formation academique",
    "formacion",
    "formacion academica",
    "educacion",
    "estudios",
  ],
  skills: [
    "skills",
    "technical skills",
    "core skills",
    "key skills",
    "top skills",
    "skills and tools",
    "competencies",
    "core competencies",
    "expertise",
    "areas of expertise",
    "technologies",
    "tools",
    "tech stack",
    "kenntnisse",
    "fahigkeiten",
    "faehigkeiten",
    "kompetenzen",
    "it kenntnisse",
    "edv kenntnisse",
    "fachkenntnisse",
    "technische kenntnisse",
    "top kenntnisse",
    "skills und kenntnisse",
    "competences",
    "competences techniques",
    "principales competences",
    "savoir faire",
    "habilidades",
    "competencias",
    "conocimientos",
    "aptitudes",
    "aptitudes principales",
    "conocimientos tecnicos",
  ],
  languages: [
    "languages",
    "language skills",
    "language",
    "sprachen",
    "sprachkenntnisse",
    "langues",
    "langue",
    "competences linguistiques",
    "idiomas",
    "idioma",
    "lenguas",
  ],
  certificates: [
    "certifications",
    "certification",
    "certificates",
    "certificate",
    "licenses and certifications",
    "licenses certifications",
    "zertifikate",
    "zertifizierungen",
    "zertifikate und weiterbildungen",
    "certificats",
    "certifications professionnelles",
    "certificaciones",
    "certificados",
    "licencias y certificaciones",
  ],
  other: [
    "projects",
    "personal projects",
    "publications",
    "awards",
    "honors",
    "honors awards",
    "honours",
    "achievements",
    "volunteer",
    "volunteering",
    "volunteer experience",
    "interests",
    "hobbies",
    "references",
    "courses",
    "activities",
    "memberships",
    "projekte",
    "publikationen",
    "auszeichnungen",
    "ehrenamt",
    "interessen",
    "hobbys",
    "referenzen",
    "weiterbildung",
    "projets",
    "publications",
    "distinctions",
    "benevolat",
    "centres d interet",
    "loisirs",
    "references",
    "proyectos",
    "publicaciones",
    "premios",
    "voluntariado",
    "intereses",
    "referencias",
    "cursos",
  ],
};

const BY_WORDS = new Map<string, Exclude<SectionKind, "header">>();
for (const [kind, words] of Object.entries(HEADINGS) as [Exclude<SectionKind, "header">, string[]][]) {
  for (const word of words) BY_WORDS.set(word, kind);
}

/** A heading's words as looked up: no accents, no punctuation, lower case, letter-spacing undone. */
export function headingKey(text: string): string {
  let key = text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/[^\p{L}\d]+/gu, " ")
    .trim();
  // "E X P E R I E N C E" → "experience".
  if (/^(?:\p{L} )+\p{L}$/u.test(key)) key = key.replace(/ /g, "");
  return key.replace(/\s+/g, " ");
}

/** The section a line opens, or null when it is not a heading. */
export function headingKind(line: Line): Exclude<SectionKind, "header"> | null {
  if (line.listItem || /^[•▪●◦‣∙·*-]/.test(line.text)) return null;
  if (line.text.length > 60 || line.parts.length > 1) return null;
  return BY_WORDS.get(headingKey(line.text)) ?? null;
}

export interface Section {
  kind: SectionKind;
  /** The heading as written (absent for a header). */
  heading?: string;
  lines: Line[];
}

export function splitSections(lines: readonly Line[]): Section[] {
  const sections: Section[] = [];
  let current: Section | undefined;
  let previous: Line | undefined;
  for (const line of lines) {
    const newColumn = previous && line.page === previous.page && line.column !== previous.column;
    const kind = headingKind(line);
    if (kind) {
      current = { kind, heading: line.text, lines: [] };
      sections.push(current);
    } else {
      if (!current || newColumn) {
        current = { kind: "header", lines: [] };
        sections.push(current);
      }
      current.lines.push(line);
    }
    previous = line;
  }
  return sections;
}
