/**
 * The phone-codes engine: the shared country list filtered and reduced to the four fields a
 * calling-code picker needs.
 */
import { findCountries } from "../_data/countries";
import type { PhoneCodes, PhoneCodesQuery } from "./schema";

/**
 * A search made only of digits and dial punctuation, with at least one digit, is a calling code,
 * not a name. Only punctuation may come before the first digit: the form this replaced,
 * `[\d\s-]*\d[\d\s-]*`, let both runs take digits, so a failing match tried every split of the
 * run (quadratic: 5 to 9 s on 100,000 digits). Exported for tests/integration/regex-safety.test.ts.
 */
export const CALLING_CODE_SEARCH = /^\+?[\s-]*\d[\d\s-]*$/;

export async function listPhoneCodes(query: PhoneCodesQuery): Promise<PhoneCodes> {
  const q = query.q?.trim();
  const qIsCallingCode = q !== undefined && CALLING_CODE_SEARCH.test(q);
  const countries = await findCountries({
    nameOrCode: [query.country, qIsCallingCode ? undefined : q],
    callingCode: qIsCallingCode ? q : undefined,
  });
  return {
    // Territories without an international calling code (Antarctica, Heard Island) have no row.
    data: countries.flatMap((country) =>
      country.callingCode === null
        ? []
        : [{ name: country.name.common, code: country.cca2, callingCode: country.callingCode, flag: country.flag }],
    ),
  };
}
