/**
 * Contact details: e-mail, phone (international forms), the person's own site, and profiles
 * on the networks résumés link (LinkedIn, GitHub, X/Twitter, GitLab, Stack Overflow, XING, …)
 * read into JSON Resume's `{network, url, username}`.
 */
import { findDateRange } from "./dates";

/** An address around one "@", read within bounds (an address's local part is ≤ 64 characters, its domain ≤ 255). */
const EMAIL_AROUND_AT = /^[\p{L}\d._%+-]+@[\p{L}\d-]+(?:\.[\p{L}\d-]+)*\.\p{L}{2,}/u;
const LOCAL_CHAR = /[\p{L}\d._%+-]/u;
const DOMAIN_CHAR = /[\p{L}\d.-]/u;
const MAX_LOCAL = 64;
const MAX_DOMAIN = 255;

/**
 * The first e-mail address in a text. Found from each "@" outwards, a bounded stretch either
 * side, so a line of 200 000 letters costs one pass: a pattern tried from every start would
 * scan the letters again from each (the square of the line's length).
 */
export function findEmail(text: string): string | null {
  for (let at = text.indexOf("@"); at >= 0; at = text.indexOf("@", at + 1)) {
    let start = at;
    while (start > 0 && at - start <= MAX_LOCAL && LOCAL_CHAR.test(text[start - 1]!)) start--;
    // A local part longer than an address may have is not one.
    if (at - start > MAX_LOCAL || start === at) continue;
    let end = at + 1;
    while (end < text.length && end - at <= MAX_DOMAIN && DOMAIN_CHAR.test(text[end]!)) end++;
    const found = EMAIL_AROUND_AT.exec(text.slice(start, end));
    if (found) return found[0];
  }
  return null;
}

/** 8–15 digits, with the separators phone numbers are written with; "+" or "00" for the country. */
const PHONE = /(?<![\w@/.])(?:\+|00)?\(?\d[\d\s().\-/]{6,}\d(?![\w@])/g;

export function findPhone(text: string): string | null {
  for (const match of text.matchAll(PHONE)) {
    const candidate = match[0].trim();
    const digits = candidate.replace(/\D/g, "");
    if (digits.length < 8 || digits.length > 15) continue;
    // Dates ("03/2019 - 06/2021", "2018 – 2020") look like numbers too.
    if (findDateRange(candidate) || /^(?:19|20)\d{2}\s*[-–]\s*(?:19|20)\d{2}$/.test(candidate)) continue;
    if (/^\d{1,2}[./]\d{1,2}[./]\d{2,4}$/.test(candidate)) continue;
    return candidate.replace(/\s+/g, " ");
  }
  return null;
}

interface Network {
  network: string;
  hosts: RegExp;
  /** The username from the path (after the host). */
  username: RegExp;
}

const NETWORKS: Network[] = [
  { network: "LinkedIn", hosts: /^(?:[\w-]+\.)?linkedin\.com$/, username: /^\/in\/([^/?#]+)/ },
  { network: "GitHub", hosts: /^(?:www\.)?github\.com$/, username: /^\/([\w.-]+)\/?$/ },
  { network: "GitLab", hosts: /^(?:www\.)?gitlab\.com$/, username: /^\/([\w.-]+)\/?$/ },
  { network: "X", hosts: /^(?:www\.|mobile\.)?(?:twitter|x)\.com$/, username: /^\/@?(\w{1,15})\/?$/ },
  { network: "Stack Overflow", hosts: /^(?:www\.)?stackoverflow\.com$/, username: /^\/users\/\d+\/([^/?#]+)/ },
  { network: "XING", hosts: /^(?:www\.)?xing\.com$/, username: /^\/profile\/([^/?#]+)/ },
  { network: "Medium", hosts: /^(?:www\.)?medium\.com$/, username: /^\/@([^/?#]+)/ },
  { network: "Dribbble", hosts: /^(?:www\.)?dribbble\.com$/, username: /^\/([\w-]+)\/?$/ },
  { network: "Behance", hosts: /^(?:www\.)?behance\.net$/, username: /^\/([\w-]+)\/?$/ },
  { network: "Instagram", hosts: /^(?:www\.)?instagram\.com$/, username: /^\/([\w.]+)\/?$/ },
];

const TLDS =
  "com|org|net|io|dev|me|app|co|ai|tech|info|page|site|online|design|eu|de|at|ch|fr|es|uk|nl|it|be|pt|se|no|dk|fi|pl|us|ca|au|in";
const URL_PATTERN = new RegExp(
  `(?<![@\\w.-])(?:https?://[^\\s<>"'|,;()]+|www\\.[^\\s<>"'|,;()]+|(?:[a-z\\d-]+\\.)+(?:${TLDS})(?:/[^\\s<>"'|,;()]*)?)(?![\\w@-])`,
  "giu",
);

export interface FoundUrl {
  url: string;
  profile?: { network: string; url: string; username: string | null };
}

/** Every URL in a text, as https URLs, with the profile each names. */
export function findUrls(text: string): FoundUrl[] {
  const found: FoundUrl[] = [];
  for (const match of text.matchAll(URL_PATTERN)) {
    const written = match[0].replace(/[.)\]]+$/, "");
    if (findEmail(written)) continue;
    let parsed: URL;
    try {
      parsed = new URL(/^https?:\/\//i.test(written) ? written : `https://${written}`);
    } catch {
      continue;
    }
    const host = parsed.hostname.toLowerCase();
    const url = `${parsed.protocol}//${host}${parsed.pathname === "/" ? "" : parsed.pathname.replace(/\/$/, "")}${parsed.search}`;
    const network = NETWORKS.find((candidate) => candidate.hosts.test(host));
    if (network) {
      const username = network.username.exec(parsed.pathname)?.[1] ?? null;
      found.push({
        url,
        profile: { network: network.network, url, username: username && decodedOrAsWritten(username) },
      });
    } else found.push({ url });
  }
  return found;
}

/** "j%C3%BCrgen" → "jürgen"; an escape that does not decode ("jane%") is kept as written. */
function decodedOrAsWritten(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

const COUNTRIES: Record<string, string> = {
  germany: "DE",
  deutschland: "DE",
  allemagne: "DE",
  alemania: "DE",
  france: "FR",
  frankreich: "FR",
  francia: "FR",
  spain: "ES",
  spanien: "ES",
  espagne: "ES",
  espana: "ES",
  austria: "AT",
  osterreich: "AT",
  switzerland: "CH",
  schweiz: "CH",
  suisse: "CH",
  "united kingdom": "GB",
  uk: "GB",
  england: "GB",
  "united states": "US",
  usa: "US",
  "united states of america": "US",
  canada: "CA",
  netherlands: "NL",
  belgium: "BE",
  belgique: "BE",
  italy: "IT",
  italia: "IT",
  portugal: "PT",
  ireland: "IE",
  poland: "PL",
  sweden: "SE",
  india: "IN",
  mexico: "MX",
  argentina: "AR",
  colombia: "CO",
  australia: "AU",
  luxembourg: "LU",
  denmark: "DK",
  norway: "NO",
  finland: "FI",
};

/** US states and Canadian provinces by their postal codes, which résumés write after a city. */
const REGION_COUNTRY: Record<string, string> = Object.fromEntries([
  ..."AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC"
    .split(" ")
    .map((code) => [code, "US"]),
  ..."ON QC BC AB MB SK NS NB NL PE".split(" ").map((code) => [code, "CA"]),
]);

const fold = (text: string) => text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().trim();

export type Location = {
  address: string | null;
  postalCode: string | null;
  city: string | null;
  region: string | null;
  countryCode: string | null;
};

/**
 * "Berlin, Germany", "San Francisco, CA", "Madrid, España", "75002 Paris, France": a place
 * written as a city and a region or country. Null for anything else.
 */
export function readLocation(text: string): Location | null {
  const written = text
    .replace(/^(?:location|standort|wohnort|adresse|address|ubicación|ubicacion|lieu)\s*:\s*/i, "")
    .trim();
  const match =
    /^(?:(\d{4,5})\s+)?([\p{Lu}][\p{L}'’.\- ]{1,40}?),\s*([\p{L}][\p{L}'’.\- ]{1,40}?)(?:,\s*([\p{L}][\p{L} .]{1,40}))?$/u.exec(
      written,
    );
  if (!match) {
    const country = COUNTRIES[fold(written)];
    return country ? { address: null, postalCode: null, city: null, region: null, countryCode: country } : null;
  }
  const [, postalCode, city, second, third] = match;
  const last = (third ?? second)!.trim();
  const countryCode = COUNTRIES[fold(last)] ?? REGION_COUNTRY[last] ?? null;
  const region = third ? second!.trim() : COUNTRIES[fold(last)] ? null : last;
  // Two capitalised words with a comma are not always a place ("Smith, John"): ask for a known
  // country or region, or a region written as a state code.
  if (!countryCode && !/^[A-Z]{2}$/.test(last) && !third) return null;
  return { address: null, postalCode: postalCode ?? null, city: city!.trim(), region, countryCode };
}
