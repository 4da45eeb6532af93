/**
 * International calling codes from world-countries' `idd` field, which splits a dial prefix
 * into a root ("+4") and suffixes ("4"), so that "+44" is root + suffix. The split is the
 * dataset's own and does not follow the ITU country code: American Samoa is "+1" + "684",
 * Åland "+3" + "5818", and the United States lists every area code as a suffix. We re-split
 * every prefix at the ITU-T E.164 country code so the answer reads the way people write it:
 * "+44", "+1-684", "+358-18", and "+1" for the United States.
 */

export interface CallingCode {
  /** How the code is written: "+44", "+1-684"; for several prefixes, their shared country code. */
  display: string;
  /** Every digit string a caller may search by: the country codes, the display and each prefix. */
  matches: readonly string[];
}

/**
 * Length of the E.164 country code that starts `digits`. Country codes are prefix-free and
 * their lengths are fixed by zone (ITU-T E.164 Annex to Operational Bulletin), so the first two
 * digits decide: zones 1 and 7 are one digit, a few two-digit blocks are shared by one country
 * each, and the rest of the zone uses three digits.
 */
export function countryCodeLength(digits: string): number {
  const zone = digits.charAt(0);
  const block = digits.slice(0, 2);
  switch (zone) {
    case "1":
    case "7":
      return 1;
    case "2":
      return block === "20" || block === "27" ? 2 : 3;
    case "3":
      return block === "35" || block === "37" || block === "38" ? 3 : 2;
    case "4":
      return block === "42" ? 3 : 2;
    case "5":
      return block === "50" || block === "59" ? 3 : 2;
    case "6":
      return block === "67" || block === "68" || block === "69" ? 3 : 2;
    case "8":
      return block === "81" || block === "82" || block === "84" || block === "86" ? 2 : 3;
    case "9":
      return block === "96" || block === "97" || block === "99" ? 3 : 2;
    default:
      // Zone 0 is unassigned; keep the prefix whole rather than guess a split.
      return digits.length;
  }
}

/** Keeps only the digits of a caller's filter: "+1-684", "1 684" and "1684" mean the same. */
export function callingCodeDigits(value: string): string {
  return value.replace(/\D/g, "");
}

/**
 * The calling code of a country from its `idd`, or null when it has none (Antarctica, Heard
 * Island and McDonald Islands).
 *
 * With one suffix the whole prefix is shown, split after the country code ("+1-684"). With
 * several (the United States and Canada list area codes, Russia and Kazakhstan share +7) only
 * the country code is shown; where the prefixes span two country codes (Vatican City: +39 06 698
 * and the reserved +379; Saint Helena +290 and Ascension +247) the first listed is shown and the
 * others stay searchable.
 */
export function describeCallingCode(idd: { root: string; suffixes: readonly string[] }): CallingCode | null {
  const root = callingCodeDigits(idd.root);
  if (root === "") return null;
  const prefixes = idd.suffixes.length > 0 ? idd.suffixes.map((suffix) => root + callingCodeDigits(suffix)) : [root];
  const countryCodes = prefixes.map((prefix) => prefix.slice(0, countryCodeLength(prefix)));
  const first = prefixes[0] ?? root;
  const firstCountryCode = countryCodes[0] ?? root;
  const display =
    prefixes.length === 1 && first.length > firstCountryCode.length
      ? `+${firstCountryCode}-${first.slice(firstCountryCode.length)}`
      : `+${firstCountryCode}`;
  const matches = [...new Set([...countryCodes, callingCodeDigits(display), ...prefixes])];
  return { display, matches };
}
