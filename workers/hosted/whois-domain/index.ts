/**
 * WHOIS Lookup: a domain's registration from its registry, over RDAP (RFC 9083) where the
 * registry serves it and port-43 WHOIS where it does not (workers/providers/rdap, decision 050).
 */
import { defineOperation, type HostedApiDefinition } from "../definition";
import { handleWhoisLookup } from "./handler";
import { WhoisInputSchema, WhoisRecordSchema, type WhoisRecord } from "./schema";

const DESCRIPTION =
  "Asks the registry of the domain's top-level domain, live: over RDAP (RFC 9083) through IANA's bootstrap file (shipped with the API and refreshed weekly), or a list of registries that serve RDAP without being in it (.de, .io, .co, .ch, .nl, …); for the TLDs with no RDAP at all (.it, .jp, .ru, .es, .eu, …), over port-43 WHOIS, whose text is read into the same fields. " +
  "Where a thin registry (.com, .net) points to the registrar's own RDAP server, that is asked too, for the registrant and abuse contact; the registry stays the authority for status, dates, name servers and DNSSEC. " +
  "`domain` takes ASCII or Unicode (`bücher.de` and `xn--bcher-kva.de` are the same name), and the answer gives both forms. Give the registered name (`bbc.co.uk`, not `www.bbc.co.uk`): registries hold no records of hosts under it. " +
  "Dates are ISO 8601 in UTC. `status` is the registry's EPP statuses as it words them. `dnssec.ds` lists the DS records the parent zone holds. `registrant` is what the registry gives, usually redacted under GDPR: withheld fields are null and `registrant.redacted` names them (RFC 9537); null when the registry gives no registrant at all. `source` says which protocol answered; `rdapUrl` is the RDAP URL read (null for WHOIS). " +
  "An unregistered name answers 404 `domain-not-registered` naming the registry; a TLD no registry serves, 422; a registry that times out, refuses or answers garbage, 502 naming its host (and 502 naming our DNS resolver when it cannot check the registry's address). Answers and 404s are kept an hour. A lookup counts as a call whatever the registry answers; input refused before asking does not. " +
  "Compared with [WhoisXML API](https://whois.whoisxmlapi.com/documentation/making-requests) and [ICANN Lookup](https://lookup.icann.org/): the answer is the registry's own RDAP answer, live (an hour's cache at most), as ICANN Lookup reads it, where WhoisXML API answers from its own database unless asked `preferFresh`, and parses WHOIS text. " +
  "Every TLD with RDAP is covered, plus port 43 for the ones without, behind one call and one answer shape; ICANN Lookup is a page for people, with no API to call. " +
  "The registrar referral is followed, so a .com answer has the registrar's registrant and abuse contact, as ICANN Lookup shows and a thin WHOIS does not. " +
  'Redaction is stated, not hidden in text: null fields plus the RDAP `redacted` names, where WhoisXML API passes "REDACTED FOR PRIVACY" strings on as values. ' +
  "DNSSEC is data: `signed` and each DS record (key tag, algorithm, digest type, digest). " +
  "IDN names go in and come out in both forms, and errors are problem+json that tell not registered (404) from a registry failing (502) and name the registry. " +
  "It is free on every plan, where WhoisXML API sells credits after its free ones. " +
  "Left out: WhoisXML API's raw WHOIS text, admin and technical contacts, history and bulk lookups.";

/** What the recorded Verisign and MarkMonitor answers give for google.com (the live demo's example). */
const GOOGLE_COM: WhoisRecord = {
  domain: "google.com",
  unicodeName: "google.com",
  registered: true,
  registrar: {
    name: "MarkMonitor Inc.",
    ianaId: "292",
    url: "http://www.markmonitor.com",
    abuseEmail: "abusecomplaints@markmonitor.com",
    abusePhone: "+1.2086851750",
  },
  status: [
    "client delete prohibited",
    "client transfer prohibited",
    "client update prohibited",
    "server delete prohibited",
    "server transfer prohibited",
    "server update prohibited",
  ],
  created: "1997-09-15T04:00:00.000Z",
  updated: "2019-09-09T15:39:04.000Z",
  expires: "2028-09-14T04:00:00.000Z",
  nameservers: ["ns1.google.com", "ns2.google.com", "ns3.google.com", "ns4.google.com"],
  dnssec: { signed: false, ds: [] },
  registrant: {
    name: null,
    organization: "Google LLC",
    email: null,
    phone: null,
    street: [],
    city: null,
    region: "CA",
    postalCode: null,
    country: "US",
    redacted: [
      "Registrant Name",
      "Registrant Street",
      "Registrant City",
      "Registrant Postal Code",
      "Registrant Phone",
      "Registrant Email",
    ],
  },
  source: "rdap",
  rdapUrl: "https://rdap.verisign.com/com/v1/domain/google.com",
};

/** A signed ccTLD record in the clear (AFNIC), for the POST form's example. */
const AFNIC_FR: WhoisRecord = {
  domain: "afnic.fr",
  unicodeName: "afnic.fr",
  registered: true,
  registrar: { name: "AFNIC registry", ianaId: null, url: "https://www.afnic.fr", abuseEmail: null, abusePhone: null },
  status: ["active", "server transfer prohibited", "server delete prohibited"],
  created: "1995-01-01T00:00:00.000Z",
  updated: "2025-10-06T09:12:44.532Z",
  expires: "2026-12-31T23:00:00.000Z",
  nameservers: ["ns1.nic.fr", "ns2.nic.fr", "ns3.nic.fr"],
  dnssec: {
    signed: true,
    ds: [
      {
        keyTag: 12345,
        algorithm: 13,
        digestType: 2,
        digest: "3F8B2E4C7D1A9E6B5C0F2A8D4E7B1C3A9F6E2D8B5C4A7E1F0D3B6C9A2E5F8B1D",
      },
    ],
  },
  registrant: {
    name: "AFNIC",
    organization: "AFNIC",
    email: "support@afnic.fr",
    phone: "+33.139308300",
    street: ["1, rue Stephenson"],
    city: "Montigny-Le-Bretonneux",
    region: null,
    postalCode: "78180",
    country: "FR",
    redacted: [],
  },
  source: "rdap",
  rdapUrl: "https://rdap.nic.fr/domain/afnic.fr",
};

const ERRORS = [
  { type: "domain-not-registered" as const, when: "The registry holds no such name; `registry` names it." },
  { type: "invalid-input" as const, when: "Not a domain name, or a TLD no registry serves over RDAP or WHOIS." },
  {
    type: "upstream-failed" as const,
    when: "The registry timed out, refused, or answered no record; `registry` names its host. Or our DNS resolver failed checking the registry's address; `resolver` names it.",
  },
];

export const definition: HostedApiDefinition = {
  slug: "whois-domain",
  operations: [
    defineOperation({
      id: "lookupDomain",
      method: "GET",
      path: "",
      summary: "A domain's registrar, status, dates, name servers, DNSSEC and registrant, from its registry",
      description: DESCRIPTION,
      inputSource: "query",
      input: WhoisInputSchema,
      output: { kind: "json", schema: WhoisRecordSchema, example: GOOGLE_COM },
      example: { domain: "google.com" },
      errors: ERRORS,
      handler: handleWhoisLookup,
    }),
    defineOperation({
      id: "lookupDomainJson",
      method: "POST",
      path: "",
      summary: "The same lookup with the domain in a JSON body",
      description: `${DESCRIPTION} The body is \`{"domain": "…"}\`; the answer is the GET form's.`,
      inputSource: "json",
      input: WhoisInputSchema,
      output: { kind: "json", schema: WhoisRecordSchema, example: AFNIC_FR },
      example: { domain: "afnic.fr" },
      errors: ERRORS,
      handler: handleWhoisLookup,
    }),
  ],
};
