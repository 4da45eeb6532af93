import type { RegistrationRecord } from "../capabilities";
import { json, problemResult, type HandlerResult, type OperationContext } from "../definition";
import type { DomainName } from "./domain-name";
import type { WhoisInput, WhoisRecord } from "./schema";

const REASONS = {
  timeout: "did not answer in time",
  refused: "refused the query or is not answering",
  unusable: "answered something that is not a registration record",
} as const;

/** The answer's shape (the issue's, field for field): the record without our routing details. */
export function toAnswer(name: DomainName, record: RegistrationRecord): WhoisRecord {
  return {
    domain: name.ascii,
    unicodeName: name.unicode,
    registered: true,
    registrar: record.registrar,
    status: record.status,
    created: record.created,
    updated: record.updated,
    expires: record.expires,
    nameservers: record.nameservers,
    dnssec: record.dnssec,
    registrant: record.registrant,
    source: record.source,
    rdapUrl: record.rdapUrl,
  };
}

export async function handleWhoisLookup(input: WhoisInput, ctx: OperationContext): Promise<HandlerResult> {
  const name = input.domain;
  const outcome = await ctx.registry.lookup(name.ascii, ctx.signal);
  if (outcome.ok) return json(toAnswer(name, outcome.record));
  switch (outcome.code) {
    case "not-registered":
      return problemResult(
        "domain-not-registered",
        `${name.unicode} is not registered: ${outcome.host} holds no such name.`,
        {
          domain: name.ascii,
          unicodeName: name.unicode,
          registry: outcome.host,
        },
      );
    case "unsupported-tld":
      return problemResult(
        "invalid-input",
        `No registry serves .${outcome.tld} over RDAP or WHOIS, so ${name.unicode} cannot be looked up.`,
        { errors: { domain: `No registry serves .${outcome.tld} over RDAP or WHOIS.` } },
      );
    case "upstream":
      return problemResult("upstream-failed", `The registry at ${outcome.host} ${REASONS[outcome.reason]}.`, {
        registry: outcome.host,
        reason: outcome.reason,
      });
    case "resolver":
      return problemResult(
        "upstream-failed",
        `Our DNS resolver at ${outcome.resolver} could not check the registry's address, so no registry was asked.`,
        { resolver: outcome.resolver },
      );
  }
}
