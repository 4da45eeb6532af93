/**
 * Email Exists' handlers over the fake resolver's fixture table (workers/providers/dns/fake.ts):
 * every DNS case the issue names, the lists' flags, the resolver's failures, and hostile input.
 * The gateway's side (plan, limits, the batch's weight) is in email-exist-gateway.test.ts.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createOperationContext } from "~workers/gateway/operation-context";
import { createFakeDohFetch, FAKE_DOH_ENDPOINT } from "~workers/providers/dns/fake";
import { createMailResolver } from "~workers/providers/dns/mail";
import { testHostedServices } from "../../../tests/fakes/services";
import { createTestContext } from "../../../tests/hosted-context";
import {
  callOperation,
  expectExampleIsReal,
  expectJson,
  expectNeverThrows,
  findOperation,
} from "../_data/operation-test-helpers";
import type { OperationContext } from "../definition";
import { definition } from "./index";
import type { EmailCheckOutput } from "./schema";

const check = findOperation(definition, "checkEmail");
const checkByQuery = findOperation(definition, "checkEmailByQuery");
const batch = findOperation(definition, "checkEmailBatch");

async function checked(email: string, ctx?: OperationContext): Promise<EmailCheckOutput> {
  return expectJson(await callOperation(check, { email }, ctx)) as EmailCheckOutput;
}

/** A context whose resolver gives up after `timeoutMs` (the fake's timeout case never answers). */
function contextWithTimeout(timeoutMs: number): OperationContext {
  const services = {
    ...testHostedServices(),
    mail: createMailResolver({ endpoint: FAKE_DOH_ENDPOINT, fetcher: createFakeDohFetch(), timeoutMs }),
  };
  return createOperationContext({
    request: new Request("https://portico.test/api/v1/email-exist"),
    requestId: "req_email",
    account: { userId: "usr_email", keyId: "key_email", planId: "premium" },
    services,
    publicHosts: [],
    signal: new AbortController().signal,
    waitUntil: () => undefined,
  });
}

describe("email-exist: the documented examples are real", () => {
  it.each([check, checkByQuery, batch])("$id", async (operation) => {
    await expectExampleIsReal(operation);
  });
});

describe("email-exist: each DNS case of the fixture table", () => {
  it("answers a Gmail address valid and free, with its MX hosts by priority", async () => {
    const body = await checked("Jane.Doe@Gmail.com");
    expect(body).toMatchObject({ status: "valid", reason: "accepts-mail", free: true, disposable: false, role: false });
    expect(body.mx.records.map((record) => record.priority)).toEqual([5, 10, 20, 30, 40]);
    expect(body.smtp).toBe("unchecked");
  });

  it("answers a single MX, a company domain neither free nor disposable", async () => {
    expect(await checked("ceo@acme.dev")).toMatchObject({
      status: "valid",
      reason: "accepts-mail",
      free: false,
      mx: { acceptsMail: true, records: [{ exchange: "mx.acme.dev", priority: 10 }] },
    });
  });

  it("answers a null MX domain invalid: it accepts no mail (RFC 7505)", async () => {
    expect(await checked("someone@example.com")).toMatchObject({
      status: "invalid",
      reason: "null-mx",
      mx: { acceptsMail: false, records: [] },
    });
  });

  it("answers a domain with no MX but an address valid, its host the implicit MX", async () => {
    expect(await checked("old@legacy-host.test")).toMatchObject({
      status: "valid",
      reason: "implicit-mx",
      mx: { acceptsMail: true, records: [{ exchange: "legacy-host.test", priority: 0 }] },
    });
  });

  it("answers a domain with neither MX nor address invalid", async () => {
    expect(await checked("x@no-mail.test")).toMatchObject({ status: "invalid", reason: "no-mail-server" });
  });

  it("answers NXDOMAIN invalid, and suggests the provider a typo was meant for", async () => {
    expect(await checked("bob@gmial.com")).toMatchObject({
      status: "invalid",
      reason: "no-such-domain",
      suggestion: "bob@gmail.com",
      mx: { acceptsMail: false },
    });
    expect(await checked("x@nxdomain.test")).toMatchObject({
      status: "invalid",
      reason: "no-such-domain",
      suggestion: null,
    });
  });

  it("answers SERVFAIL unknown: the domain's own servers failed", async () => {
    expect(await checked("x@servfail.test")).toMatchObject({
      status: "unknown",
      reason: "dns-servfail",
      mx: { acceptsMail: null, records: [] },
    });
  });

  it("answers 502 naming the resolver when it does not answer in time", async () => {
    const started = Date.now();
    const result = await callOperation(check, { email: "x@timeout.test" }, contextWithTimeout(50));
    expect(result).toMatchObject({
      kind: "problem",
      type: "upstream-failed",
      extensions: { upstream: "dns.fake.invalid" },
    });
    expect(result.kind === "problem" && result.detail).toMatch(/did not answer in time/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("answers 502 naming the resolver when it fails", async () => {
    const result = await callOperation(check, { email: "x@resolver-down.test" });
    expect(result).toMatchObject({
      kind: "problem",
      type: "upstream-failed",
      extensions: { upstream: "dns.fake.invalid" },
    });
  });
});

describe("email-exist: the lists' flags", () => {
  it("answers a disposable domain risky, though it takes mail", async () => {
    expect(await checked("throwaway@mailinator.com")).toMatchObject({
      status: "risky",
      reason: "disposable",
      disposable: true,
      free: false,
      mx: { acceptsMail: true },
    });
  });

  it("flags a subdomain of a disposable service as disposable", async () => {
    expect(await checked("x@inbox.mailinator.com")).toMatchObject({ disposable: true });
  });

  it.each(["info@acme.dev", "Support+billing@acme.dev", "no-reply@acme.dev", "postmaster@acme.dev"])(
    "flags %s as a role mailbox, and still valid",
    async (email) => {
      expect(await checked(email)).toMatchObject({ role: true, status: "valid" });
    },
  );

  it("does not flag a person's mailbox as a role's", async () => {
    expect(await checked("jane.doe@acme.dev")).toMatchObject({ role: false });
  });

  it("does not take a real provider for a typo of another", async () => {
    // hotmail.es is one edit from hotmail.de, but it is Microsoft's own.
    expect(await checked("ana@hotmail.es")).toMatchObject({ free: true, suggestion: null });
  });

  it("suggests nothing for a real domain that takes mail, however close to a provider's name", async () => {
    // mx.com is one edit from me.com, and its own mail servers answer.
    expect(await checked("x@mx.com")).toMatchObject({ status: "valid", suggestion: null });
  });

  it.each(["info@example.com", "a@test.com", "a@mydomain.com"])(
    "does not call %s a free provider: it is a reserved or placeholder name, not a mail service",
    async (email) => {
      expect(await checked(email)).toMatchObject({ free: false });
    },
  );

  it("still suggests for a typo domain the lists know (gmial.com is listed as disposable)", async () => {
    expect(await checked("bob@gmial.com")).toMatchObject({ disposable: true, suggestion: "bob@gmail.com" });
  });
});

describe("email-exist: syntax", () => {
  it("answers a bad address invalid with the fault, asking DNS nothing", async () => {
    const body = await checked("john..doe@gmail.com");
    expect(body).toEqual({
      email: "john..doe@gmail.com",
      normalized: null,
      status: "invalid",
      reason: "invalid-local-part",
      syntax: { valid: false, username: "john..doe", domain: "gmail.com" },
      suggestion: null,
      mx: { acceptsMail: null, records: [] },
      disposable: false,
      role: false,
      free: false,
      smtp: "unchecked",
    });
  });

  it("checks an IDN domain in its ASCII form", async () => {
    expect(await checked("jane@bücher.de")).toMatchObject({
      normalized: "jane@xn--bcher-kva.de",
      syntax: { valid: true, domain: "xn--bcher-kva.de" },
      reason: "no-such-domain",
    });
  });

  it("refuses an empty or absurdly long field before the handler", () => {
    expect(check.input.safeParse({ email: "   " }).success).toBe(false);
    expect(check.input.safeParse({ email: "a".repeat(1025) }).success).toBe(false);
    expect(check.input.safeParse({ email: `${"a".repeat(1000)}@example.com` }).success).toBe(true);
  });
});

describe("email-exist: batch", () => {
  it("answers each address in order, looking each domain up once", async () => {
    const fetcher = createFakeDohFetch();
    const services = {
      ...testHostedServices(),
      mail: createMailResolver({ endpoint: FAKE_DOH_ENDPOINT, fetcher, timeoutMs: 200 }),
    };
    const ctx = createOperationContext({
      request: new Request("https://portico.test/api/v1/email-exist/batch"),
      requestId: "req_batch",
      account: { userId: "usr_batch", keyId: "key_batch", planId: "premium" },
      services,
      publicHosts: [],
      signal: new AbortController().signal,
      waitUntil: () => undefined,
    });
    const emails = ["a@gmail.com", "b@GMAIL.com", "not an address", "c@servfail.test", "d@example.com"];
    const body = expectJson(await callOperation(batch, { emails }, ctx)) as {
      count: number;
      results: EmailCheckOutput[];
    };
    expect(body.count).toBe(5);
    expect(body.results.map((result) => [result.email, result.status, result.reason])).toEqual([
      ["a@gmail.com", "valid", "accepts-mail"],
      ["b@GMAIL.com", "valid", "accepts-mail"],
      ["not an address", "invalid", "missing-at"],
      ["c@servfail.test", "unknown", "dns-servfail"],
      ["d@example.com", "invalid", "null-mx"],
    ]);
    expect(fetcher.asked.filter((question) => question.startsWith("gmail.com"))).toEqual(["gmail.com MX"]);
  });

  it("answers a resolver's failure per address, the rest as usual", async () => {
    const body = expectJson(
      await callOperation(
        batch,
        { emails: ["x@timeout.test", "y@resolver-down.test", "z@gmail.com"] },
        contextWithTimeout(50),
      ),
    ) as { results: EmailCheckOutput[] };
    expect(body.results.map((result) => [result.status, result.reason])).toEqual([
      ["unknown", "dns-timeout"],
      ["unknown", "dns-unavailable"],
      ["valid", "accepts-mail"],
    ]);
  });

  it("answers 502 naming the resolver when every lookup of a batch failed on the resolver's side, so none of it is counted", async () => {
    // Charged in full for 50 `unknown`s because our resolver was down would bill the caller for our outage.
    const result = await callOperation(
      batch,
      { emails: ["x@timeout.test", "y@resolver-down.test", "z@resolver-down.test", "not an address"] },
      contextWithTimeout(50),
    );
    expect(result).toMatchObject({
      kind: "problem",
      type: "upstream-failed",
      extensions: { upstream: "dns.fake.invalid" },
    });
    expect(result.kind === "problem" && result.detail).toMatch(/none of the batch was counted/);
  });

  it("answers a batch with no domain to look up, or whose failures are the domains' own, as usual", async () => {
    const unparsable = expectJson(await callOperation(batch, { emails: ["not an address"] })) as {
      results: EmailCheckOutput[];
    };
    expect(unparsable.results.map((result) => result.reason)).toEqual(["missing-at"]);
    // SERVFAIL is the domain's answer, not our resolver failing.
    const servfail = expectJson(
      await callOperation(batch, { emails: ["x@servfail.test", "y@resolver-down.test"] }),
    ) as { results: EmailCheckOutput[] };
    expect(servfail.results.map((result) => result.reason)).toEqual(["dns-servfail", "dns-unavailable"]);
  });

  it("weighs a batch at one call per address, and takes at most 50", () => {
    const weight = batch.weight;
    expect(typeof weight).toBe("function");
    if (typeof weight !== "function") return;
    expect(weight({ emails: ["a@b.co", "c@d.co", "e@f.co"] })).toBe(3);
    expect(batch.input.safeParse({ emails: Array(50).fill("a@b.co") }).success).toBe(true);
    expect(batch.input.safeParse({ emails: Array(51).fill("a@b.co") }).success).toBe(false);
    expect(batch.input.safeParse({ emails: [] }).success).toBe(false);
    expect(check.weight).toBeUndefined();
  });
});

describe("email-exist: hostile input", () => {
  const emailLike = fc.oneof(
    fc.emailAddress(),
    fc.string({ unit: "binary", maxLength: 300 }),
    fc.constantFrom(
      "a@gmail.com",
      '"@"@example.com',
      "a@[::1]",
      "a@127.0.0.1",
      "a@localhost",
      "a@xn--.com",
      "\u0000@\u0000",
    ),
  );

  it("never throws on the single check, and every answer fits the schema", async () => {
    await expectNeverThrows(check, { email: emailLike }, createTestContext());
  });

  it("never throws on the batch", async () => {
    await expectNeverThrows(batch, { emails: fc.array(emailLike, { maxLength: 8 }) }, createTestContext());
  });
});
