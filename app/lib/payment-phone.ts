/**
 * The mobile number Cashfree needs for an Indian checkout: ten digits starting 6 to 9.
 * Spaces, dashes and a +91 / 91 / 0 prefix are accepted and removed, so what reaches the
 * server is always the bare ten digits.
 */
export const PHONE_REQUIRED_MESSAGE = "Enter your mobile number.";
export const PHONE_INVALID_MESSAGE = "Enter a valid 10-digit Indian mobile number (starting with 6, 7, 8 or 9).";

export function normaliseIndianMobile(input: string): string | null {
  let digits = input.replace(/[\s().-]/g, "");
  if (digits.startsWith("+91")) digits = digits.slice(3);
  else if (digits.length === 12 && digits.startsWith("91")) digits = digits.slice(2);
  else if (digits.length === 11 && digits.startsWith("0")) digits = digits.slice(1);
  return /^[6-9]\d{9}$/.test(digits) ? digits : null;
}

/** The message to show beside the field, or null when the number is usable. */
export function phoneError(input: string): string | null {
  if (input.trim() === "") return PHONE_REQUIRED_MESSAGE;
  return normaliseIndianMobile(input) ? null : PHONE_INVALID_MESSAGE;
}
