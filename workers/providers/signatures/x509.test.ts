import { X509Certificate } from "node:crypto";
import { exportSPKI, importX509 } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { createSelfSignedCertificate, generateRsaSigningKeyPair } from "./x509";

const NOT_BEFORE = new Date(Date.UTC(2026, 0, 1, 0, 0, 0));
const NOT_AFTER = new Date(Date.UTC(2056, 0, 1, 0, 0, 0)); // past 2049: GeneralizedTime, not UTCTime

let keyPair: CryptoKeyPair;
let pem: string;

beforeAll(async () => {
  keyPair = await generateRsaSigningKeyPair();
  pem = await createSelfSignedCertificate({
    keyPair,
    commonName: "messageverificationcerts.paypal.local",
    notBefore: NOT_BEFORE,
    notAfter: NOT_AFTER,
  });
});

describe("createSelfSignedCertificate", () => {
  it("writes PEM with 64-character base64 lines", () => {
    const lines = pem.trimEnd().split("\n");
    expect(lines[0]).toBe("-----BEGIN CERTIFICATE-----");
    expect(lines.at(-1)).toBe("-----END CERTIFICATE-----");
    const body = lines.slice(1, -1);
    expect(body.length).toBeGreaterThan(10);
    expect(body.slice(0, -1).every((line) => /^[A-Za-z0-9+/]{64}$/.test(line))).toBe(true);
  });

  it("is accepted by jose.importX509 with RS256, yielding the key pair's public key", async () => {
    const imported = await importX509(pem, "RS256", { extractable: true });
    expect(imported.algorithm).toMatchObject({ name: "RSASSA-PKCS1-v1_5", hash: { name: "SHA-256" } });
    expect(await exportSPKI(imported)).toBe(await exportSPKI(keyPair.publicKey));

    // And the imported key verifies what the private key signed.
    const data = new TextEncoder().encode("signed by the fake");
    const signature = await crypto.subtle.sign("RSASSA-PKCS1-v1_5", keyPair.privateKey, data);
    expect(await crypto.subtle.verify({ name: "RSASSA-PKCS1-v1_5" }, imported, signature, data)).toBe(true);
  });

  it("is a well-formed, correctly self-signed v3 certificate to an independent parser", () => {
    // node:crypto (BoringSSL inside workerd) parses the whole structure and checks the signature,
    // which jose does not: jose only lifts the SubjectPublicKeyInfo out of the certificate.
    const certificate = new X509Certificate(pem);
    expect(certificate.subject).toBe("CN=messageverificationcerts.paypal.local");
    expect(certificate.issuer).toBe(certificate.subject);
    expect(new Date(certificate.validFrom).getTime()).toBe(NOT_BEFORE.getTime());
    expect(new Date(certificate.validTo).getTime()).toBe(NOT_AFTER.getTime());
    expect(certificate.ca).toBe(false);
    expect(certificate.serialNumber).toMatch(/^[0-9A-F]{32}$/);
    expect(certificate.checkIssued(certificate)).toBe(true);
    expect(certificate.verify(certificate.publicKey)).toBe(true);
  });

  it("declares version 3 and carries a critical basicConstraints extension for an end entity", () => {
    const der = new Uint8Array(new X509Certificate(pem).raw);
    // Certificate and TBSCertificate headers are 4 bytes each (lengths above 255), then [0] { INTEGER 2 }.
    expect([...der.subarray(8, 13)]).toEqual([0xa0, 0x03, 0x02, 0x01, 0x02]);
    // [3] { SEQUENCE { SEQUENCE { OID 2.5.29.19, BOOLEAN TRUE, OCTET STRING { SEQUENCE {} } } } }
    const extensions = [
      0xa3, 0x10, 0x30, 0x0e, 0x30, 0x0c, 0x06, 0x03, 0x55, 0x1d, 0x13, 0x01, 0x01, 0xff, 0x04, 0x02, 0x30, 0x00,
    ];
    expect(Buffer.from(der).includes(Buffer.from(extensions))).toBe(true);
  });

  it("fails the independent signature check when a byte of the signed part changes", () => {
    const der = new X509Certificate(pem).raw;
    // Flip a bit inside the common name, which lies inside the signed TBSCertificate.
    const at = der.indexOf(Buffer.from("messageverificationcerts"));
    expect(at).toBeGreaterThan(0);
    const tampered = Buffer.from(der);
    tampered[at] = (tampered[at] ?? 0) ^ 0x01;
    expect(new X509Certificate(tampered).verify(new X509Certificate(pem).publicKey)).toBe(false);
  });

  it("gives each certificate its own serial number", async () => {
    const again = await createSelfSignedCertificate({
      keyPair,
      commonName: "x",
      notBefore: NOT_BEFORE,
      notAfter: NOT_AFTER,
    });
    expect(new X509Certificate(again).serialNumber).not.toBe(new X509Certificate(pem).serialNumber);
  });

  it.each<[string, RsaHashedKeyGenParams | EcKeyGenParams]>([
    // SHA-384 would sign fine but contradict the sha256WithRSAEncryption the certificate declares.
    [
      "RSA with SHA-384",
      { name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-384" },
    ],
    ["ECDSA", { name: "ECDSA", namedCurve: "P-256" }],
  ])("refuses a %s key pair", async (_kind, params) => {
    const keyPair = (await crypto.subtle.generateKey(params, true, ["sign", "verify"])) as CryptoKeyPair;
    await expect(
      createSelfSignedCertificate({ keyPair, commonName: "x", notBefore: NOT_BEFORE, notAfter: NOT_AFTER }),
    ).rejects.toThrow(/needs an RSASSA-PKCS1-v1_5 SHA-256 key pair/);
  });
});
