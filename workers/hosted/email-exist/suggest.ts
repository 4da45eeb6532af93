/**
 * "Did you mean": a domain one or two keystrokes away from a common mail provider's is most
 * likely that provider's, mistyped (gmial.com, hotmal.com, yahoo.con). Distance is the optimal
 * string alignment form of Damerau–Levenshtein: a swapped pair of letters, the commonest typo,
 * counts as one edit.
 */

/** The providers people mistype, by how many addresses they hold; each is also never "corrected". */
export const COMMON_PROVIDERS = [
  "gmail.com",
  "googlemail.com",
  "yahoo.com",
  "yahoo.co.uk",
  "yahoo.fr",
  "yahoo.co.in",
  "ymail.com",
  "hotmail.com",
  "hotmail.co.uk",
  "hotmail.fr",
  "hotmail.de",
  "hotmail.it",
  "outlook.com",
  "live.com",
  "msn.com",
  "icloud.com",
  "me.com",
  "mac.com",
  "aol.com",
  "protonmail.com",
  "proton.me",
  "gmx.com",
  "gmx.de",
  "gmx.net",
  "web.de",
  "mail.com",
  "mail.ru",
  "yandex.ru",
  "yandex.com",
  "zoho.com",
  "fastmail.com",
  "comcast.net",
  "verizon.net",
  "att.net",
  "sbcglobal.net",
  "orange.fr",
  "free.fr",
  "laposte.net",
  "libero.it",
  "qq.com",
  "163.com",
  "126.com",
  "naver.com",
  "rediffmail.com",
  "seznam.cz",
  "wp.pl",
  "o2.pl",
  "t-online.de",
  "btinternet.com",
  "shaw.ca",
  "rogers.com",
  "bigpond.com",
] as const;

const KNOWN = new Set<string>(COMMON_PROVIDERS);

/** Edits between `a` and `b` (insert, delete, replace, swap two neighbours), stopping past `limit`. */
export function editDistance(a: string, b: string, limit = Number.POSITIVE_INFINITY): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, (beforePrevious[j - 2] ?? 0) + 1);
      }
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return limit + 1;
    beforePrevious = previous;
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** The name without its top-level label, and that label: "hotmail.co.uk" → ["hotmail.co", "uk"]. */
function splitTld(domain: string): [string, string] {
  const dot = domain.lastIndexOf(".");
  return [domain.slice(0, dot), domain.slice(dot + 1)];
}

/**
 * The provider's domain `domain` is most likely a typo of, or null. One edit is enough for a
 * suggestion; two only for names of eight letters or more, where two slips still leave the
 * name plain (gamil.con) and a short real domain is not mistaken for a provider.
 *
 * The same name under another country code is the provider's own regional domain
 * (hotmail.es, live.de, yahoo.co.jp), never a typo of hotmail.de or live.com; a top-level label
 * that is no country code (gmail.con, yahoo.cmo) is. Typo domains are suggested for even when
 * the lists know them (gmial.com is listed as disposable: it catches mistyped mail).
 */
export function suggestDomain(domain: string): string | null {
  const name = domain.toLowerCase();
  if (KNOWN.has(name)) return null;
  const [stem, tld] = splitTld(name);
  if (/^[a-z]{2}$/.test(tld) && COMMON_PROVIDERS.some((provider) => splitTld(provider)[0] === stem)) return null;
  let best: { provider: string; distance: number } | null = null;
  for (const provider of COMMON_PROVIDERS) {
    const allowed = provider.length >= 8 ? 2 : 1;
    const distance = editDistance(name, provider, allowed);
    if (distance <= allowed && (!best || distance < best.distance)) best = { provider, distance };
  }
  return best?.provider ?? null;
}
