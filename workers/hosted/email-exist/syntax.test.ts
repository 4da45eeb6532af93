import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { editDistance, suggestDomain } from "./suggest";
import { MAX_ADDRESS_OCTETS, parseAddress } from "./syntax";

describe("email syntax: what mail servers accept", () => {
  it.each([
    ["simple@example.com", "simple@example.com"],
    ["very.common@example.com", "very.common@example.com"],
    ["user.name+tag+sorting@example.com", "user.name+tag+sorting@example.com"],
    ["name/surname@example.com", "name/surname@example.com"],
    ["user%example.com@example.org", "user%example.com@example.org"],
    ["user-@example.org", "user-@example.org"],
    ["x@sub.domain.example.co.uk", "x@sub.domain.example.co.uk"],
    // Quoted local parts (RFC 5321 §4.1.2): kept quoted where they need it, unquoted where not.
    ['"john..doe"@example.org', '"john..doe"@example.org'],
    ['" "@example.org', '" "@example.org'],
    [
      '"very.(),:;<>[]\\".VERY.\\"very@\\\\ \\"very\\".unusual"@strange.example.com',
      '"very.(),:;<>[]\\".VERY.\\"very@\\\\ \\"very\\".unusual"@strange.example.com',
    ],
    ['"john"@example.com', "john@example.com"],
    // The domain in lower case and ASCII; the local part as written (it is case-sensitive).
    ["Jane.Doe@Gmail.COM", "Jane.Doe@gmail.com"],
    ["jane@gmail.com.", "jane@gmail.com"],
    ["  jane@gmail.com\t", "jane@gmail.com"],
    ["jane@bücher.de", "jane@xn--bcher-kva.de"],
    ["jane@ＧＭＡＩＬ.com", "jane@gmail.com"],
    // RFC 6531: UTF-8 local parts, which the large providers accept.
    ["用户@例子.广告", "用户@xn--fsqu00a.xn--4rr70v"],
    ["josé@example.com", "josé@example.com"],
  ])("accepts %s as %s", (input, normalized) => {
    expect(parseAddress(input)).toMatchObject({ ok: true, normalized });
  });

  it.each([
    ["Abc.example.com", "missing-at"],
    ["@example.com", "empty-local-part"],
    ["user@", "empty-domain"],
    ["A@b@c@example.com", "invalid-local-part"],
    ['a"b(c)d,e:f;g<h>i[j\\k]l@example.com', "invalid-local-part"],
    ['just"not"right@example.com', "invalid-local-part"],
    ['this is"not\\allowed@example.com', "invalid-local-part"],
    ["john..doe@example.com", "invalid-local-part"],
    [".john@example.com", "invalid-local-part"],
    ["john.@example.com", "invalid-local-part"],
    ['"unterminated@example.com', "missing-at"],
    ['"a"b@example.com', "missing-at"],
    ["bell\u0007@example.com", "invalid-local-part"],
    ["i.like.underscores@but_they_are_not_allowed_in_this_part.com", "invalid-domain"],
    ["user@localhost", "single-label-domain"],
    ["user@[192.168.2.1]", "domain-literal"],
    ["user@[IPv6:2001:db8::1]", "domain-literal"],
    ["user@192.168.2.1", "invalid-domain"],
    ["user@-example.com", "invalid-domain"],
    ["user@example-.com", "invalid-domain"],
    ["user@exa mple.com", "invalid-domain"],
    ["user@example.com:25", "invalid-domain"],
    ["user@example.com/path", "invalid-domain"],
    ["user@ex%41mple.com", "invalid-domain"],
    ["user@example..com", "invalid-domain"],
    [`user@${"a".repeat(64)}.com`, "label-too-long"],
    [`${"a".repeat(65)}@example.com`, "local-part-too-long"],
    // 33 two-octet letters are 66 octets.
    [`${"é".repeat(33)}@example.com`, "local-part-too-long"],
  ])("refuses %s: %s", (input, error) => {
    expect(parseAddress(input)).toMatchObject({ ok: false, error });
  });

  it("refuses half a surrogate pair, which is no text", () => {
    expect(parseAddress("half\ud800@example.com")).toMatchObject({ ok: false, error: "invalid-local-part" });
    expect(parseAddress("\udc00@example.com")).toMatchObject({ ok: false, error: "invalid-local-part" });
  });

  it("holds the limits exactly: 64 octets of local part, 254 of address", () => {
    expect(parseAddress(`${"a".repeat(64)}@example.com`).ok).toBe(true);
    const domain = `${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(63)}.com`;
    const fits = `${"a".repeat(MAX_ADDRESS_OCTETS - domain.length - 1)}@${domain}`;
    expect(new TextEncoder().encode(fits).length).toBe(254);
    expect(parseAddress(fits).ok).toBe(true);
    expect(parseAddress(`a${fits}`)).toMatchObject({ ok: false, error: "address-too-long" });
  });

  it("says what it could split, even when it refuses", () => {
    expect(parseAddress("john..doe@Example.com")).toEqual({
      ok: false,
      error: "invalid-local-part",
      username: "john..doe",
      domain: "Example.com",
    });
  });

  it("never throws, and anything it accepts reads back as itself", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: "binary" }),
          fc.emailAddress(),
          fc.tuple(fc.string(), fc.domain()).map(([l, d]) => `${l}@${d}`),
        ),
        (input) => {
          const parsed = parseAddress(input);
          if (!parsed.ok) return;
          expect(new TextEncoder().encode(parsed.normalized).length).toBeLessThanOrEqual(MAX_ADDRESS_OCTETS);
          expect(parseAddress(parsed.normalized)).toEqual(parsed);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it("accepts every address fast-check's RFC generator makes that fits the limits", () => {
    fc.assert(
      fc.property(fc.emailAddress(), (address) => {
        const [local = "", domain = ""] = [
          address.slice(0, address.lastIndexOf("@")),
          address.slice(address.lastIndexOf("@") + 1),
        ];
        const fits = local.length <= 64 && address.length <= 254 && !/^\d+$/.test(domain.split(".").at(-1) ?? "");
        if (fits) expect(parseAddress(address)).toMatchObject({ ok: true });
      }),
      { numRuns: 1_000 },
    );
  });
});

describe("typo suggestions", () => {
  it.each([
    ["gmial.com", "gmail.com"],
    ["gmai.com", "gmail.com"],
    ["gmaill.com", "gmail.com"],
    ["gamil.con", "gmail.com"],
    ["hotmial.com", "hotmail.com"],
    ["yaho.com", "yahoo.com"],
    ["yahoo.con", "yahoo.com"],
    ["outlok.com", "outlook.com"],
    ["gmail.con", "gmail.com"],
    ["yahoo.cmo", "yahoo.com"],
  ])("suggests %s → %s", (domain, suggestion) => {
    expect(suggestDomain(domain)).toBe(suggestion);
  });

  it.each([
    "gmail.com",
    "acme.dev",
    "example.com",
    "company.org",
    "gmx.at",
    "mail.de",
    "aol.fr",
    "hotmail.es",
    "live.de",
    "yahoo.co.jp",
    "gmail.co",
  ])("suggests nothing for %s", (domain) => {
    expect(suggestDomain(domain)).toBeNull();
  });

  it("counts a swapped pair as one edit, and stops past its limit", () => {
    expect(editDistance("gmial", "gmail")).toBe(1);
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("abcdef", "uvwxyz", 2)).toBe(3);
  });
});
