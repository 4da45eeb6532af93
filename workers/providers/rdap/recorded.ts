/**
 * Recorded registry answers the local fake serves, in each registry's own structure:
 *
 * - Verisign's .com RDAP (a thin registry: registrar and abuse contact only, with a `related`
 *   link to the registrar's RDAP server) and MarkMonitor's answer behind that link, whose
 *   registrant is GDPR-redacted the way ICANN's 2023 RDAP profile asks (RFC 9537 `redacted`
 *   entries plus "REDACTED FOR PRIVACY" values, the organisation, region and country kept);
 * - Public Interest Registry's .org RDAP, a thick registry that redacts the registrant itself;
 * - AFNIC's .fr RDAP (a ccTLD, DNSSEC-signed with DS records, no IANA registrar id);
 * - DENIC's .de RDAP (served without being in IANA's bootstrap file; sparse by design: no
 *   registrar, no registrant);
 * - port-43 texts in three dialects: .it (sections), .jp (JPRS's "[Key] value"), .ru (key: value),
 *   with each server's wording for a name it does not hold.
 *
 * The values are shaped on the registries' published answers; dates and digests are examples.
 */

const vcard = (...properties: unknown[][]) => ["vcard", [["version", {}, "text", "4.0"], ...properties]];

const ICANN_NOTICES = [
  {
    title: "Terms of Use",
    description: ["Service subject to Terms of Use."],
    links: [
      {
        href: "https://www.verisign.com/domain-names/registration-data-access-protocol/terms-service/index.xhtml",
        rel: "terms-of-service",
        type: "text/html",
      },
    ],
  },
];

export const VERISIGN_GOOGLE_COM = {
  objectClassName: "domain",
  handle: "2138514_DOMAIN_COM-VRSN",
  ldhName: "GOOGLE.COM",
  links: [
    {
      value: "https://rdap.verisign.com/com/v1/domain/GOOGLE.COM",
      rel: "self",
      href: "https://rdap.verisign.com/com/v1/domain/GOOGLE.COM",
      type: "application/rdap+json",
    },
    {
      value: "https://rdap.markmonitor.com/rdap/domain/GOOGLE.COM",
      rel: "related",
      href: "https://rdap.markmonitor.com/rdap/domain/GOOGLE.COM",
      type: "application/rdap+json",
    },
  ],
  status: [
    "client delete prohibited",
    "client transfer prohibited",
    "client update prohibited",
    "server delete prohibited",
    "server transfer prohibited",
    "server update prohibited",
  ],
  entities: [
    {
      objectClassName: "entity",
      handle: "292",
      roles: ["registrar"],
      publicIds: [{ type: "IANA Registrar ID", identifier: "292" }],
      vcardArray: vcard(["fn", {}, "text", "MarkMonitor Inc."]),
      entities: [
        {
          objectClassName: "entity",
          roles: ["abuse"],
          vcardArray: vcard(
            ["fn", {}, "text", ""],
            ["tel", { type: "voice" }, "uri", "tel:+1.2086851750"],
            ["email", {}, "text", "abusecomplaints@markmonitor.com"],
          ),
        },
      ],
    },
  ],
  events: [
    { eventAction: "registration", eventDate: "1997-09-15T04:00:00Z" },
    { eventAction: "expiration", eventDate: "2028-09-14T04:00:00Z" },
    { eventAction: "last changed", eventDate: "2019-09-09T15:39:04Z" },
    { eventAction: "last update of RDAP database", eventDate: "2026-11-23T21:47:28Z" },
  ],
  secureDNS: { delegationSigned: false },
  nameservers: [
    { objectClassName: "nameserver", ldhName: "NS1.GOOGLE.COM" },
    { objectClassName: "nameserver", ldhName: "NS2.GOOGLE.COM" },
    { objectClassName: "nameserver", ldhName: "NS3.GOOGLE.COM" },
    { objectClassName: "nameserver", ldhName: "NS4.GOOGLE.COM" },
  ],
  rdapConformance: ["rdap_level_0", "icann_rdap_technical_implementation_guide_1", "icann_rdap_response_profile_1"],
  notices: ICANN_NOTICES,
};

const REDACTED = "REDACTED FOR PRIVACY";

export const MARKMONITOR_GOOGLE_COM = {
  objectClassName: "domain",
  handle: "2138514_DOMAIN_COM-VRSN",
  ldhName: "google.com",
  links: [{ href: "https://rdap.markmonitor.com/rdap/domain/google.com", rel: "self", type: "application/rdap+json" }],
  status: ["client update prohibited", "client transfer prohibited", "client delete prohibited"],
  entities: [
    {
      objectClassName: "entity",
      roles: ["registrant"],
      vcardArray: vcard(
        ["fn", {}, "text", REDACTED],
        ["org", {}, "text", "Google LLC"],
        ["adr", {}, "text", ["", "", REDACTED, REDACTED, "CA", REDACTED, "US"]],
        ["tel", { type: "voice" }, "uri", REDACTED],
        ["email", {}, "text", REDACTED],
      ),
    },
    {
      objectClassName: "entity",
      handle: "292",
      roles: ["registrar"],
      publicIds: [{ type: "IANA Registrar ID", identifier: "292" }],
      vcardArray: vcard(["fn", {}, "text", "MarkMonitor Inc."]),
      links: [{ href: "http://www.markmonitor.com", rel: "about", type: "text/html" }],
    },
  ],
  events: [
    { eventAction: "registration", eventDate: "1997-09-15T07:00:00.000+00:00" },
    { eventAction: "expiration", eventDate: "2028-09-13T07:00:00.000+00:00" },
    { eventAction: "last changed", eventDate: "2019-09-09T15:39:04.000+00:00" },
  ],
  redacted: [
    { name: { type: "Registrant Name" }, method: "removal", reason: { type: "Server policy" } },
    { name: { type: "Registrant Street" }, method: "removal", reason: { type: "Server policy" } },
    { name: { type: "Registrant City" }, method: "removal", reason: { type: "Server policy" } },
    { name: { type: "Registrant Postal Code" }, method: "removal", reason: { type: "Server policy" } },
    { name: { type: "Registrant Phone" }, method: "removal", reason: { type: "Server policy" } },
    { name: { type: "Registrant Email" }, method: "replacementValue", reason: { type: "Server policy" } },
  ],
  rdapConformance: ["rdap_level_0", "redacted", "icann_rdap_response_profile_1"],
};

export const PIR_WIKIPEDIA_ORG = {
  objectClassName: "domain",
  handle: "D51687756-LROR",
  ldhName: "wikipedia.org",
  links: [
    {
      value: "https://rdap.publicinterestregistry.org/rdap/domain/wikipedia.org",
      rel: "self",
      href: "https://rdap.publicinterestregistry.org/rdap/domain/wikipedia.org",
      type: "application/rdap+json",
    },
  ],
  status: ["client delete prohibited", "client transfer prohibited", "client update prohibited"],
  entities: [
    {
      objectClassName: "entity",
      handle: "292",
      roles: ["registrar"],
      publicIds: [{ type: "IANA Registrar ID", identifier: "292" }],
      vcardArray: vcard(["fn", {}, "text", "MarkMonitor Inc."]),
      links: [{ href: "http://www.markmonitor.com", rel: "about", type: "text/html" }],
      entities: [
        {
          objectClassName: "entity",
          roles: ["abuse"],
          vcardArray: vcard(
            ["fn", {}, "text", "Abuse Contact"],
            ["tel", { type: ["voice"] }, "uri", "tel:+1.2083895740"],
            ["email", {}, "text", "abusecomplaints@markmonitor.com"],
          ),
        },
      ],
    },
    {
      objectClassName: "entity",
      handle: "REDACTED",
      roles: ["registrant"],
      vcardArray: vcard(
        ["fn", {}, "text", ""],
        ["org", {}, "text", "Wikimedia Foundation, Inc."],
        ["adr", { cc: "US" }, "text", ["", "", "", "", "CA", "", ""]],
      ),
      remarks: [{ title: "REDACTED FOR PRIVACY", type: "object redacted due to authorization" }],
    },
  ],
  events: [
    { eventAction: "registration", eventDate: "2001-01-13T00:12:14.000Z" },
    { eventAction: "last changed", eventDate: "2024-12-12T10:47:26.000Z" },
    { eventAction: "expiration", eventDate: "2028-01-13T00:12:14.000Z" },
  ],
  secureDNS: { delegationSigned: false },
  nameservers: [
    { objectClassName: "nameserver", ldhName: "ns0.wikimedia.org" },
    { objectClassName: "nameserver", ldhName: "ns1.wikimedia.org" },
    { objectClassName: "nameserver", ldhName: "ns2.wikimedia.org" },
  ],
  redacted: [
    {
      name: { type: "Registrant Name" },
      prePath: "$.entities[?(@.roles[0]=='registrant')].vcardArray[1][?(@[0]=='fn')][3]",
      method: "emptyValue",
    },
    {
      name: { type: "Registrant Street" },
      prePath: "$.entities[?(@.roles[0]=='registrant')].vcardArray[1][?(@[0]=='adr')][3][2]",
      method: "emptyValue",
    },
    {
      name: { type: "Registrant City" },
      prePath: "$.entities[?(@.roles[0]=='registrant')].vcardArray[1][?(@[0]=='adr')][3][3]",
      method: "emptyValue",
    },
    {
      name: { type: "Registrant Postal Code" },
      prePath: "$.entities[?(@.roles[0]=='registrant')].vcardArray[1][?(@[0]=='adr')][3][5]",
      method: "emptyValue",
    },
    { name: { type: "Registrant Email" }, method: "removal" },
    { name: { type: "Registrant Phone" }, method: "removal" },
  ],
  rdapConformance: [
    "rdap_level_0",
    "redacted",
    "icann_rdap_response_profile_1",
    "icann_rdap_technical_implementation_guide_1",
  ],
};

export const AFNIC_AFNIC_FR = {
  objectClassName: "domain",
  handle: "DOM000000000024-FRNIC",
  ldhName: "afnic.fr",
  unicodeName: "afnic.fr",
  links: [
    {
      href: "https://rdap.nic.fr/domain/afnic.fr",
      rel: "self",
      type: "application/rdap+json",
      value: "https://rdap.nic.fr/domain/afnic.fr",
    },
  ],
  status: ["active", "server transfer prohibited", "server delete prohibited"],
  entities: [
    {
      objectClassName: "entity",
      handle: "1",
      roles: ["registrar"],
      vcardArray: vcard(
        ["fn", {}, "text", "AFNIC registry"],
        [
          "adr",
          {},
          "text",
          ["", "", "immeuble Le Stephenson, 1, rue Stephenson", "Montigny-Le-Bretonneux", "", "78180", "FR"],
        ],
        ["email", {}, "text", "support@afnic.fr"],
        ["url", {}, "uri", "https://www.afnic.fr"],
      ),
    },
    {
      objectClassName: "entity",
      handle: "A3586-FRNIC",
      roles: ["registrant"],
      vcardArray: vcard(
        ["fn", {}, "text", "AFNIC"],
        ["org", {}, "text", "AFNIC"],
        ["adr", {}, "text", ["", "", "1, rue Stephenson", "Montigny-Le-Bretonneux", "", "78180", "FR"]],
        ["email", {}, "text", "support@afnic.fr"],
        ["tel", { type: "voice" }, "uri", "tel:+33.139308300"],
      ),
    },
  ],
  events: [
    { eventAction: "registration", eventDate: "1995-01-01T00:00:00Z" },
    { eventAction: "last changed", eventDate: "2025-10-06T09:12:44.532573Z" },
    { eventAction: "expiration", eventDate: "2026-12-31T23:00:00Z" },
  ],
  secureDNS: {
    zoneSigned: true,
    delegationSigned: true,
    dsData: [
      {
        keyTag: 12345,
        algorithm: 13,
        digestType: 2,
        digest: "3f8b2e4c7d1a9e6b5c0f2a8d4e7b1c3a9f6e2d8b5c4a7e1f0d3b6c9a2e5f8b1d",
      },
    ],
  },
  nameservers: [
    { objectClassName: "nameserver", ldhName: "ns1.nic.fr" },
    { objectClassName: "nameserver", ldhName: "ns2.nic.fr" },
    { objectClassName: "nameserver", ldhName: "ns3.nic.fr" },
  ],
  rdapConformance: ["rdap_level_0", "fr_rdap_level_0"],
};

export const DENIC_DENIC_DE = {
  objectClassName: "domain",
  handle: "denic.de",
  ldhName: "denic.de",
  unicodeName: "denic.de",
  status: ["active"],
  events: [{ eventAction: "last changed", eventDate: "2025-04-10T09:45:26+02:00" }],
  nameservers: [
    { objectClassName: "nameserver", ldhName: "ns1.denic.de" },
    { objectClassName: "nameserver", ldhName: "ns2.denic.org" },
    { objectClassName: "nameserver", ldhName: "ns3.denic.de" },
  ],
  secureDNS: {
    delegationSigned: true,
    dsData: [
      {
        keyTag: 26155,
        algorithm: 8,
        digestType: 2,
        digest: "b1d5a2c0e9f8d7c6b5a4938271605f4e3d2c1b0a99887766554433221100ffee",
      },
    ],
  },
  notices: [
    {
      title: "Terms and Conditions",
      description: ["The data is for information purposes only; the full terms are at https://www.denic.de/en/whois."],
    },
  ],
  rdapConformance: ["rdap_level_0", "denic_version_0"],
};

/** Served as RDAP: URL (lower case) to answer. Anything else at an RDAP host is a 404. */
export const RECORDED_RDAP: Record<string, unknown> = {
  "https://rdap.verisign.com/com/v1/domain/google.com": VERISIGN_GOOGLE_COM,
  "https://rdap.markmonitor.com/rdap/domain/google.com": MARKMONITOR_GOOGLE_COM,
  "https://rdap.publicinterestregistry.org/rdap/domain/wikipedia.org": PIR_WIKIPEDIA_ORG,
  "https://rdap.nic.fr/domain/afnic.fr": AFNIC_AFNIC_FR,
  "https://rdap.denic.de/domain/denic.de": DENIC_DENIC_DE,
};

/** Verisign's and most registries' 404 body (RFC 9083 §6). */
export const RDAP_NOT_FOUND = {
  errorCode: 404,
  title: "Not Found",
  description: ["The requested object was not found."],
};

export const WHOIS_GOOGLE_IT = `
*********************************************************************
* Please note that the following result could be a subgroup of      *
* the data contained in the database.                               *
*                                                                   *
* Additional information can be visualized at:                      *
* http://web-whois.nic.it                                           *
*********************************************************************

Domain:             google.it
Status:             ok
Signed:             no
Created:            1999-12-10 00:00:00
Last Update:        2025-05-23 00:54:13
Expire Date:        2026-04-21

Registrant
  Organization:     Google Ireland Holdings Unlimited Company
  Address:          70 Sir John Rogerson's Quay
                    Dublin
                    2
                    IE
                    IE
  Created:          2018-03-07 18:07:03
  Last Update:      2018-03-07 18:07:03

Admin Contact
  Name:             Christina Chiou
  Organization:     Google LLC

Registrar
  Organization:     MarkMonitor International Limited
  Name:             MARKMONITOR-REG
  Web:              https://www.markmonitor.com/
  DNSSEC:           no

Nameservers
  ns1.google.com
  ns2.google.com
  ns3.google.com
  ns4.google.com
`;

export const WHOIS_AVAILABLE_IT = `
*********************************************************************
* Please note that the following result could be a subgroup of      *
* the data contained in the database.                               *
*********************************************************************

Domain:             %NAME%
Status:             AVAILABLE
`;

export const WHOIS_GOOGLE_JP = `[ JPRS database provides information on network administration. Its use is    ]
[ restricted to network administration purposes. For further information,     ]
[ use 'whois -h whois.jprs.jp help'. To suppress Japanese output, add'/e'      ]
[ at the end of command, e.g. 'whois -h whois.jprs.jp xxx/e'.                  ]

Domain Information:
[Domain Name]                   GOOGLE.JP

[Registrant]                    Google LLC

[Name Server]                   ns1.google.com
[Name Server]                   ns2.google.com
[Name Server]                   ns3.google.com
[Name Server]                   ns4.google.com
[Signing Key]                   

[Created on]                    2005/05/30
[Expires on]                    2026/05/31
[Status]                        Active
[Last Updated]                  2025/06/01 01:05:04 (JST)

Contact Information:
[Name]                          Google LLC
[Email]                         dns-admin@google.com
`;

export const WHOIS_NO_MATCH_JP = `[ JPRS database provides information on network administration. Its use is    ]
[ restricted to network administration purposes. For further information,     ]
[ use 'whois -h whois.jprs.jp help'. To suppress Japanese output, add'/e'      ]
[ at the end of command, e.g. 'whois -h whois.jprs.jp xxx/e'.                  ]

No match!!

JP domain names which are registered with JPRS Co., Ltd. can be searched.
`;

export const WHOIS_YANDEX_RU = `% TCI Whois Service. Terms of use:
% https://tcinet.ru/documents/whois_ru_rf.pdf (in Russian)
% https://tcinet.ru/documents/whois_su.pdf (in Russian)

domain:        YANDEX.RU
nserver:       ns1.yandex.ru. 213.180.193.1, 2a02:6b8::1
nserver:       ns2.yandex.ru. 213.180.199.34, 2a02:6b8:0:1::1
state:         REGISTERED, DELEGATED, VERIFIED
org:           YANDEX, LLC.
taxpayer-id:   7736207543
registrar:     RU-CENTER-RU
admin-contact: https://www.nic.ru/whois
created:       1997-09-23T09:45:07Z
paid-till:     2026-09-30T21:00:00Z
free-date:     2026-11-01
source:        TCI

Last updated on 2026-11-23T21:51:30Z
`;

export const WHOIS_NO_ENTRIES_RU = `% TCI Whois Service. Terms of use:
% https://tcinet.ru/documents/whois_ru_rf.pdf (in Russian)

No entries found for the selected source(s).

Last updated on 2026-11-23T21:51:30Z
`;

/** Served over the fake port 43: server to (name to answer), and the server's "not held" text. */
export const RECORDED_WHOIS: Record<string, { records: Record<string, string>; notFound: string }> = {
  "whois.nic.it": { records: { "google.it": WHOIS_GOOGLE_IT }, notFound: WHOIS_AVAILABLE_IT },
  "whois.jprs.jp": { records: { "google.jp": WHOIS_GOOGLE_JP }, notFound: WHOIS_NO_MATCH_JP },
  "whois.tcinet.ru": { records: { "yandex.ru": WHOIS_YANDEX_RU }, notFound: WHOIS_NO_ENTRIES_RU },
};

/** What a server without a recording answers for a name it does not hold (the common wording). */
export const WHOIS_NO_MATCH_GENERIC = `No match for "%NAME%".\n`;
