import { describe, expect, it } from "vitest";
import { createNonce, dataSecurityHeaders, pageContentSecurityPolicy, pageSecurityHeaders } from "./security-headers";

function directive(policy: string, name: string): string {
  return policy.split("; ").find((part) => part.startsWith(`${name} `)) ?? "";
}

describe("createNonce", () => {
  it("makes 128-bit base64 nonces, a new one each time", () => {
    const nonces = new Set(Array.from({ length: 50 }, createNonce));
    expect(nonces.size).toBe(50);
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });
});

describe("pageContentSecurityPolicy", () => {
  it("runs this origin's scripts and the nonce's, nothing inline without it", () => {
    const policy = pageContentSecurityPolicy("abc123", "/");
    expect(directive(policy, "script-src")).toBe("script-src 'self' 'nonce-abc123'");
    expect(policy).toContain("object-src 'none'");
    expect(policy).toContain("base-uri 'none'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toMatch(/paypal|cashfree/);
  });

  it.each(["/html-to-pdf/live-demo", "/image-to-text/live-demo/", "/HTML-to-PDF/Live-Demo"])(
    "frames this origin's pages and the blob URLs its scripts make on a live demo (%s), which shows a PDF answer inline",
    (pathname) => {
      expect(directive(pageContentSecurityPolicy("n", pathname), "frame-src")).toBe("frame-src 'self' blob:");
    },
  );

  it.each(["/", "/docs", "/html-to-pdf", "/html-to-pdf/live-demo/extra", "/live-demo", "/user/subscription"])(
    "frames no blob: URL on %s, which shows no PDF",
    (pathname) => {
      expect(directive(pageContentSecurityPolicy("n", pathname), "frame-src")).not.toContain("blob:");
    },
  );

  it.each(["/user/subscription", "/user/transactions", "/User/Subscription/", "/user/transactions/"])(
    "lets the payment SDKs' hosts in on %s",
    (pathname) => {
      const policy = pageContentSecurityPolicy("n", pathname);
      for (const host of ["https://www.paypal.com", "https://*.paypalobjects.com", "https://sdk.cashfree.com"]) {
        expect(directive(policy, "script-src")).toContain(host);
      }
      expect(directive(policy, "frame-src")).toContain("https://*.paypal.com");
      expect(directive(policy, "connect-src")).toContain("https://api.cashfree.com");
      expect(directive(policy, "form-action")).toContain("https://payments.cashfree.com");
    },
  );

  it.each(["/", "/docs", "/status/payment/pay_1", "/user/subscriptions", "/user/dashboard"])(
    "keeps them out of %s",
    (pathname) => {
      expect(pageContentSecurityPolicy("n", pathname)).not.toMatch(/paypal|cashfree/);
    },
  );
});

describe("HSTS", () => {
  it("is sent by production only, on pages and on data", () => {
    const hsts = "max-age=63072000; includeSubDomains";
    expect(pageSecurityHeaders({ nonce: "n", pathname: "/", production: true })["strict-transport-security"]).toBe(
      hsts,
    );
    expect(dataSecurityHeaders({ production: true })["strict-transport-security"]).toBe(hsts);
    expect(pageSecurityHeaders({ nonce: "n", pathname: "/", production: false })).not.toHaveProperty(
      "strict-transport-security",
    );
    expect(dataSecurityHeaders({ production: false })).not.toHaveProperty("strict-transport-security");
  });
});
