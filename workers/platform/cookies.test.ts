import { describe, expect, it } from "vitest";
import { isSecureRequest, serializeCookie } from "./cookies";

describe("isSecureRequest", () => {
  it.each(["https://portico.dev/", "http://portico.dev/", "http://portico.test:8787/", "https://localhost/"])(
    "sets Secure cookies for %s",
    (url) => {
      expect(isSecureRequest(new Request(url))).toBe(true);
    },
  );

  it.each(["http://localhost:5173/", "http://127.0.0.1:4173/", "http://[::1]:5173/"])(
    "leaves Secure off for plain http to this machine, %s",
    (url) => {
      expect(isSecureRequest(new Request(url))).toBe(false);
    },
  );
});

describe("serializeCookie", () => {
  it("writes Secure only when asked, and HttpOnly with SameSite=Lax always", () => {
    expect(serializeCookie("a", "b c", { maxAgeSeconds: 60, secure: true })).toBe(
      "a=b%20c; Path=/; Max-Age=60; HttpOnly; SameSite=Lax; Secure",
    );
    expect(serializeCookie("a", "b", { maxAgeSeconds: 60, secure: false })).not.toContain("Secure");
  });
});
