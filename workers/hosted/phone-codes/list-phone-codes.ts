/**
 * The phone-codes engine: the shared country list filtered and reduced to the four fields a
 * calling-code picker needs.
 */
import { findCountries } from "../_data/countries";
import type { PhoneCodes, PhoneCodesQuery } from "./schema";

/** A search made only of digits and dial punctuation is a calling code, not a name. */
const CALLING_CODE_SEARCH = /^\+?[\d\s-]*\d[\d\s-]*$/;

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
