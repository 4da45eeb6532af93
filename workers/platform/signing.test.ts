import { describe, expect, it } from "vitest";
import { fromBase64Url, signValue, toBase64Url, unsignValue } from "./signing";

const SECRET = "a-test-session-secret-of-at-least-32-characters";
const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

describe("signed cookie values", () => {
  it("gives back the value it signed, and nothing for another secret or a changed value", async () => {
    const signed = await signValue("ses_1.usr_1.3", SECRET);
    expect(signed).toMatch(/^ses_1\.usr_1\.3\.[A-Za-z0-9_-]{43}$/);
    expect(await unsignValue(signed, SECRET)).toBe("ses_1.usr_1.3");
    expect(await unsignValue(signed, `${SECRET}-other`)).toBeNull();
    expect(await unsignValue(signed.replace("usr_1", "usr_2"), SECRET)).toBeNull();
  });

  it("accepts only the issued last character of the signature, not the three that differ in its two unused bits", async () => {
    const signed = await signValue("ses_1.usr_1.3", SECRET);
    // 43 characters carry 258 bits for a 256-bit MAC: a decoder ignores the last one's two low bits.
    const verdicts = await Promise.all(
      [...BASE64URL].map(async (last) => {
        const spelling = signed.slice(0, -1) + last;
        return [spelling, (await unsignValue(spelling, SECRET)) !== null] as const;
      }),
    );
    expect(verdicts.filter(([, ok]) => ok).map(([spelling]) => spelling)).toEqual([signed]);
  });

  it("refuses the signature with padding or whitespace that a lenient decoder would drop", async () => {
    const signed = await signValue("ses_1.usr_1.3", SECRET);
    const dot = signed.lastIndexOf(".");
    for (const spelling of [`${signed}=`, `${signed.slice(0, dot + 5)} ${signed.slice(dot + 5)}`]) {
      expect(await unsignValue(spelling, SECRET)).toBeNull();
    }
  });
});

describe("fromBase64Url", () => {
  it("decodes what toBase64Url wrote, for every length modulo 3", () => {
    for (const bytes of [
      new Uint8Array([]),
      new Uint8Array([0xfb]),
      new Uint8Array([0xfb, 0xff]),
      new Uint8Array([1, 2, 0xfe]),
    ]) {
      expect(fromBase64Url(toBase64Url(bytes))).toEqual(bytes);
    }
    expect(toBase64Url(new Uint8Array([0xfb, 0xff]))).toBe("-_8");
  });

  it("refuses spellings that are not the one toBase64Url writes", () => {
    // "-_8" is [0xfb, 0xff]; "-_9" differs only in the two bits a decoder ignores.
    for (const text of ["-_9", "-_8=", "+/8", "-_ 8", "A", "!"]) expect(fromBase64Url(text)).toBeNull();
  });
});
