/**
 * A self-signed X.509 v3 certificate for an RSA key, built with a minimal DER encoder, so the
 * local fake PayPal and the tests can serve a certificate that `jose.importX509` reads exactly as
 * it reads PayPal's. No certificate library is installed and jose only parses certificates, so the
 * few ASN.1 types a certificate needs are encoded here (RFC 5280 §4.1, X.690 DER).
 *
 * Not for production: nothing in the webhook path trusts a certificate because of what this builds;
 * production trust comes from fetching PayPal's own certificate from a paypal.com URL over HTTPS.
 */
import { encodeBase64 } from "./base64";

export interface SelfSignedCertificateInput {
  /** An RSASSA-PKCS1-v1_5 / SHA-256 pair whose public key is extractable (see `generateRsaSigningKeyPair`). */
  keyPair: CryptoKeyPair;
  /** Subject and issuer common name, e.g. "messageverificationcerts.paypal.com" like PayPal's. */
  commonName: string;
  notBefore: Date;
  notAfter: Date;
}

/** A 2048-bit RSASSA-PKCS1-v1_5 / SHA-256 key pair, the kind PayPal signs webhooks with. */
export function generateRsaSigningKeyPair(): Promise<CryptoKeyPair> {
  return crypto.subtle.generateKey(
    {
      name: "RSASSA-PKCS1-v1_5",
      modulusLength: 2048,
      publicExponent: new Uint8Array([0x01, 0x00, 0x01]),
      hash: "SHA-256",
    },
    true,
    ["sign", "verify"],
  );
}

/** The certificate as PEM (`-----BEGIN CERTIFICATE-----`, base64 in 64-character lines). */
export async function createSelfSignedCertificate(input: SelfSignedCertificateInput): Promise<string> {
  const { keyPair, commonName, notBefore, notAfter } = input;
  const { algorithm } = keyPair.privateKey;
  // The signature algorithm written into the certificate is sha256WithRSAEncryption, so refuse any
  // other key rather than produce a certificate whose signature contradicts its own header.
  if (algorithm.name !== "RSASSA-PKCS1-v1_5" || !("hash" in algorithm) || !isSha256(algorithm.hash)) {
    throw new TypeError("createSelfSignedCertificate needs an RSASSA-PKCS1-v1_5 SHA-256 key pair");
  }

  // WebCrypto already produces a DER SubjectPublicKeyInfo, which goes into the certificate as is.
  const spki = new Uint8Array(await crypto.subtle.exportKey("spki", keyPair.publicKey));
  const name = distinguishedName(commonName);
  const tbsCertificate = sequence(
    explicit(0, integer(new Uint8Array([2]))), // version: v3 is encoded as 2
    integer(randomSerialNumber()),
    SHA256_WITH_RSA,
    name, // issuer: self-signed, so the same as the subject
    sequence(time(notBefore), time(notAfter)),
    name, // subject
    spki,
    explicit(3, sequence(BASIC_CONSTRAINTS_END_ENTITY)),
  );
  const signature = new Uint8Array(await crypto.subtle.sign("RSASSA-PKCS1-v1_5", keyPair.privateKey, tbsCertificate));
  const certificate = sequence(tbsCertificate, SHA256_WITH_RSA, bitString(signature));

  const lines = encodeBase64(certificate).match(/.{1,64}/g) ?? [];
  return ["-----BEGIN CERTIFICATE-----", ...lines, "-----END CERTIFICATE-----", ""].join("\n");
}

function isSha256(hash: unknown): boolean {
  return typeof hash === "object" && hash !== null && "name" in hash && hash.name === "SHA-256";
}

// --- DER encoding: tag, length, contents (X.690 §8, §10) ---------------------------------------

function concat(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** DER lengths: one byte below 128, otherwise 0x80 + the number of big-endian length bytes. */
function encodeLength(length: number): Uint8Array {
  if (length < 0x80) return new Uint8Array([length]);
  const bytes: number[] = [];
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest & 0xff);
  return new Uint8Array([0x80 | bytes.length, ...bytes]);
}

function tlv(tag: number, ...contents: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const body = concat(contents);
  return concat([new Uint8Array([tag]), encodeLength(body.length), body]);
}

const sequence = (...items: readonly Uint8Array[]) => tlv(0x30, ...items);
const set = (...items: readonly Uint8Array[]) => tlv(0x31, ...items);
/** A context-specific constructed tag ([n] EXPLICIT), as version [0] and extensions [3] use. */
const explicit = (n: number, item: Uint8Array) => tlv(0xa0 | n, item);

/** INTEGER from big-endian magnitude bytes; a 0x00 is prefixed when the top bit would read as negative. */
function integer(magnitude: Uint8Array): Uint8Array<ArrayBuffer> {
  const first = magnitude[0] ?? 0;
  return tlv(0x02, first & 0x80 ? new Uint8Array([0, ...magnitude]) : magnitude);
}

/** BIT STRING whose length is whole bytes: the leading 0 says no bits of the last byte are unused. */
const bitString = (bytes: Uint8Array) => tlv(0x03, new Uint8Array([0]), bytes);

/** OBJECT IDENTIFIER: the first two arcs share a byte (40 × a + b), then base-128 with continuation bits. */
function objectIdentifier(dotted: string): Uint8Array<ArrayBuffer> {
  const [a = 0, b = 0, ...rest] = dotted.split(".").map(Number);
  const bytes: number[] = [40 * a + b];
  for (const arc of rest) {
    const groups: number[] = [arc & 0x7f];
    for (let value = Math.floor(arc / 128); value > 0; value = Math.floor(value / 128))
      groups.unshift(0x80 | (value & 0x7f));
    bytes.push(...groups);
  }
  return tlv(0x06, new Uint8Array(bytes));
}

/** RFC 5280 §4.1.2.5: UTCTime (two-digit year) for 1950–2049, GeneralizedTime otherwise, always UTC with seconds. */
function time(date: Date): Uint8Array<ArrayBuffer> {
  const year = date.getUTCFullYear();
  const pad = (n: number) => String(n).padStart(2, "0");
  const rest = `${pad(date.getUTCMonth() + 1)}${pad(date.getUTCDate())}${pad(date.getUTCHours())}${pad(date.getUTCMinutes())}${pad(date.getUTCSeconds())}Z`;
  const ascii = (text: string) => new TextEncoder().encode(text);
  return year >= 1950 && year < 2050
    ? tlv(0x17, ascii(`${pad(year % 100)}${rest}`))
    : tlv(0x18, ascii(`${String(year).padStart(4, "0")}${rest}`));
}

/** A Name holding only a common name: SEQUENCE OF SET OF { OID 2.5.4.3, UTF8String }. */
function distinguishedName(commonName: string): Uint8Array<ArrayBuffer> {
  return sequence(set(sequence(objectIdentifier("2.5.4.3"), tlv(0x0c, new TextEncoder().encode(commonName)))));
}

/**
 * RFC 5280 §4.1.1.2 / §4.1.2.2: at most 20 bytes and positive. 16 random bytes with the top bit
 * cleared (so no sign byte is needed) and the next one set (so DER needs no leading-zero trimming).
 */
function randomSerialNumber(): Uint8Array {
  const serial = crypto.getRandomValues(new Uint8Array(16));
  serial[0] = ((serial[0] ?? 0) & 0x7f) | 0x40;
  return serial;
}

/** AlgorithmIdentifier sha256WithRSAEncryption, whose parameters are an explicit NULL (RFC 4055 §5). */
const SHA256_WITH_RSA = sequence(objectIdentifier("1.2.840.113549.1.1.11"), new Uint8Array([0x05, 0x00]));

/**
 * basicConstraints, critical, with cA left at its default (false), which DER omits: an empty
 * SEQUENCE. It marks the certificate as an end-entity signing certificate, which is what PayPal's is.
 */
const BASIC_CONSTRAINTS_END_ENTITY = sequence(
  objectIdentifier("2.5.29.19"),
  new Uint8Array([0x01, 0x01, 0xff]), // critical: BOOLEAN TRUE
  tlv(0x04, sequence()), // extnValue: OCTET STRING wrapping the DER of BasicConstraints
);
