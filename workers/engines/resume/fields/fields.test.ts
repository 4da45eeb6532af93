/**
 * The field readers on their own, on the forms résumés write: date ranges in four languages,
 * phones in international forms, profile URLs, places, headings.
 */
import { describe, expect, it } from "vitest";
import { headingKey, headingKind } from "../sections";
import type { Line } from "../lines";
import { findEmail, findPhone, findUrls, readLocation } from "./contact";
import { findDateRange, isoDate, tidy } from "./dates";
import { readLanguages, readSkills } from "./lists";

const line = (text: string, extra: Partial<Line> = {}): Line => ({
  text,
  parts: [text],
  page: 1,
  x: 0,
  y: 0,
  fontSize: 10,
  bold: false,
  column: 0,
  ...extra,
});

describe("date ranges", () => {
  it.each([
    ["Jan 2020 – Present", "2020-01", null],
    ["January 2020 - Current", "2020-01", null],
    ["03/2019 - 06/2021", "2019-03", "2021-06"],
    ["3.2019 – 6.2021", "2019-03", "2021-06"],
    ["2019-03 to 2021-06", "2019-03", "2021-06"],
    ["2018–2020", "2018", "2020"],
    ["2018 - 2020", "2018", "2020"],
    ["März 2020 – heute", "2020-03", null],
    ["Mär. 2020 - bis heute", "2020-03", null],
    ["Okt 2015 bis Dez 2019", "2015-10", "2019-12"],
    ["seit 2021", "2021", null],
    ["janv. 2020 – actuel", "2020-01", null],
    ["sept. 2015 – déc. 2019", "2015-09", "2019-12"],
    ["févr. 2014 - aujourd'hui", "2014-02", null],
    ["depuis mars 2022", "2022-03", null],
    ["enero de 2019 – actualidad", "2019-01", null],
    ["ago 2017 - dic 2018", "2017-08", "2018-12"],
    ["Senior Engineer, Acme | Jun 2016 – Aug 2019 | Berlin", "2016-06", "2019-08"],
    ["March 2021 - Present (3 years 9 months)", "2021-03", null],
  ])("%s → %s … %s", (text, start, end) => {
    expect(findDateRange(text)).toMatchObject({ startDate: start, endDate: end });
  });

  it.each(["+1 415 555 0132", "Improved revenue by 20-30 percent", "Python 3.10 - 3.12", "2020 – 2018"])(
    "finds no range in %s",
    (text) => {
      expect(findDateRange(text)).toBeNull();
    },
  );

  it("reads single dates as ISO partial dates", () => {
    expect(isoDate("Dez 2019")).toBe("2019-12");
    expect(isoDate("06/2021")).toBe("2021-06");
    expect(isoDate("2019")).toBe("2019");
    expect(isoDate("Present")).toBeNull();
  });
});

describe("contacts", () => {
  it.each([
    ["+1 (415) 555-0132", "+1 (415) 555-0132"],
    ["Tel: +49 30 1234567", "+49 30 1234567"],
    ["+33 6 12 34 56 78", "+33 6 12 34 56 78"],
    ["0044 20 7946 0958", "0044 20 7946 0958"],
    ["(030) 123 45 67", "(030) 123 45 67"],
  ])("finds the phone in %s", (text, phone) => {
    expect(findPhone(text)).toBe(phone);
  });

  it.each(["03/2019 - 06/2021", "2018 - 2020", "12.03.2020", "ID 12345"])("finds no phone in %s", (text) => {
    expect(findPhone(text)).toBeNull();
  });

  it("finds an e-mail address with accents in its domain or name", () => {
    expect(findEmail("Mail: zoë.müller@beispiel.de ·")).toBe("zoë.müller@beispiel.de");
  });

  it("reads profile URLs into network, URL and username, and keeps other sites as URLs", () => {
    expect(
      findUrls(
        "linkedin.com/in/jane-doe | https://github.com/jdoe/ | x.com/janedoe | twitter.com/@jd | www.xing.com/profile/Zoe_Mueller | janedoe.dev | jane@doe.dev",
      ),
    ).toEqual([
      {
        url: "https://linkedin.com/in/jane-doe",
        profile: { network: "LinkedIn", url: "https://linkedin.com/in/jane-doe", username: "jane-doe" },
      },
      {
        url: "https://github.com/jdoe",
        profile: { network: "GitHub", url: "https://github.com/jdoe", username: "jdoe" },
      },
      { url: "https://x.com/janedoe", profile: { network: "X", url: "https://x.com/janedoe", username: "janedoe" } },
      { url: "https://twitter.com/@jd", profile: { network: "X", url: "https://twitter.com/@jd", username: "jd" } },
      {
        url: "https://www.xing.com/profile/Zoe_Mueller",
        profile: { network: "XING", url: "https://www.xing.com/profile/Zoe_Mueller", username: "Zoe_Mueller" },
      },
      { url: "https://janedoe.dev" },
    ]);
    expect(findUrls("Node.js, Vue.js and Scrum.org training")).toEqual([{ url: "https://scrum.org" }]);
  });

  it("reads places written as a city and a region or country", () => {
    expect(readLocation("San Francisco, CA")).toEqual({
      address: null,
      city: "San Francisco",
      region: "CA",
      postalCode: null,
      countryCode: "US",
    });
    expect(readLocation("Berlin, Deutschland")).toEqual({
      address: null,
      city: "Berlin",
      region: null,
      postalCode: null,
      countryCode: "DE",
    });
    expect(readLocation("Lyon, Auvergne-Rhône-Alpes, France")).toMatchObject({
      city: "Lyon",
      region: "Auvergne-Rhône-Alpes",
      countryCode: "FR",
    });
    expect(readLocation("Smith, John")).toBeNull();
  });

  it("keeps the postal code written before a city (JSON Resume's location.postalCode)", () => {
    expect(readLocation("75002 Paris, France")).toEqual({
      address: null,
      city: "Paris",
      region: null,
      postalCode: "75002",
      countryCode: "FR",
    });
  });

  it("keeps a profile whose username is not valid percent-encoding as written", () => {
    expect(findUrls("linkedin.com/in/jane%")).toEqual([
      {
        url: "https://linkedin.com/in/jane%",
        profile: { network: "LinkedIn", url: "https://linkedin.com/in/jane%", username: "jane%" },
      },
    ]);
    expect(findUrls("linkedin.com/in/j%C3%BCrgen")[0]?.profile?.username).toBe("jürgen");
  });
});

// One line of 200 000 characters (a DOCX paragraph, a PDF text run) must cost a linear pass:
// these inputs made the earlier regular expressions backtrack from every start (quadratic, tens
// of seconds). vitest's per-test time-out is the bound; the answers are asserted.
const LONG = 200_000;
describe("long lines", () => {
  it("finds an e-mail after 200 000 letters, and none in letters alone", { timeout: 15_000 }, () => {
    expect(findEmail("a".repeat(LONG))).toBeNull();
    expect(findEmail(`${"a".repeat(LONG)}@`)).toBeNull();
    expect(findEmail(`${"x".repeat(LONG)} jane.doe@example.com`)).toBe("jane.doe@example.com");
    expect(findEmail(`Mail: jane.doe+cv@mail.example.co.uk | ${"b".repeat(LONG)}`)).toBe("jane.doe+cv@mail.example.co.uk");
    expect(findEmail("jane@localhost")).toBeNull();
  });

  it("tidies a cut line that ends in 200 000 separators, or in separators and a word", { timeout: 15_000 }, () => {
    expect(tidy(`Acme${" -".repeat(LONG / 2)}`)).toBe("Acme");
    const kept = `Acme${" -".repeat(LONG / 2)} x`;
    expect(tidy(kept)).toBe(kept);
    expect(tidy(`| Acme Corp (`)).toBe("Acme Corp");
  });

  it("splits a skills line holding 200 000 dots", { timeout: 15_000 }, () => {
    expect(readSkills([line(`Go, ${".".repeat(LONG)}x, Rust.`)])).toEqual([
      { name: "Go", keywords: [] },
      { name: "Rust", keywords: [] },
    ]);
  });
});

describe("headings", () => {
  it.each([
    ["EXPERIENCE", "work"],
    ["Work History", "work"],
    ["Berufserfahrung", "work"],
    ["Expérience professionnelle", "work"],
    ["EXPERIENCIA LABORAL", "work"],
    ["E X P E R I E N C E", "work"],
    ["Ausbildung", "education"],
    ["Formación académica", "education"],
    ["Compétences :", "skills"],
    ["Top Skills", "skills"],
    ["Sprachen", "languages"],
    ["Idiomas", "languages"],
    ["Licenses & Certifications", "certificates"],
    ["Über mich", "summary"],
  ])("%s opens %s", (text, kind) => {
    expect(headingKind(line(text))).toBe(kind);
  });

  it("does not take a bullet or a sentence for a heading", () => {
    expect(headingKind(line("• Experience"))).toBeNull();
    expect(headingKind(line("Experience with large teams across Europe"))).toBeNull();
    expect(headingKey("Expérience  Professionnelle:")).toBe("experience professionnelle");
  });
});

describe("lists", () => {
  it("reads grouped skills, plain lists and items with commas in parentheses", () => {
    expect(readSkills([line("Languages: TypeScript, Go"), line("• Python (Django, Flask) • SQL")])).toEqual([
      { name: "Languages", keywords: ["TypeScript", "Go"] },
      { name: "Python (Django, Flask)", keywords: [] },
      { name: "SQL", keywords: [] },
    ]);
  });

  it("reads languages with their fluency in any of the usual forms", () => {
    expect(
      readLanguages([
        line("Deutsch (Muttersprache), Englisch – C1"),
        line("Français : courant"),
        line("Spanish"),
        line("Elementary proficiency"),
      ]),
    ).toEqual([
      { language: "Deutsch", fluency: "Muttersprache" },
      { language: "Englisch", fluency: "C1" },
      { language: "Français", fluency: "courant" },
      { language: "Spanish", fluency: "Elementary proficiency" },
    ]);
  });
});
