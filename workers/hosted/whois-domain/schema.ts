import { z } from "zod";
import { MAX_DOMAIN_INPUT, parseDomainName } from "./domain-name";

const DomainField = z
  .string({ error: "Give a domain name, such as example.com." })
  .max(MAX_DOMAIN_INPUT, `A domain name is at most ${MAX_DOMAIN_INPUT} characters as typed.`)
  .transform((value, ctx) => {
    const parsed = parseDomainName(value);
    if (!parsed.ok) {
      ctx.addIssue({ code: "custom", message: parsed.message });
      return z.NEVER;
    }
    return parsed.name;
  });

export const WhoisInputSchema = z.object({
  domain: DomainField.meta({
    description: "The registered domain name, ASCII or Unicode (IDN): `example.com`, `bücher.de`, `xn--bcher-kva.de`.",
    examples: ["google.com"],
  }),
});
export type WhoisInput = z.output<typeof WhoisInputSchema>;

const nullableText = z.string().nullable();

export const WhoisRecordSchema = z.object({
  domain: z.string().meta({ description: "The name as registries hold it: A-labels, lower case." }),
  unicodeName: z.string().meta({ description: "The same name in Unicode (equal to `domain` for an ASCII name)." }),
  registered: z.literal(true),
  registrar: z.object({
    name: nullableText,
    ianaId: nullableText.meta({ description: "The registrar's IANA id (gTLDs); null where the registry gives none." }),
    url: nullableText,
    abuseEmail: nullableText,
    abusePhone: nullableText,
  }),
  status: z.array(z.string()).meta({ description: "EPP statuses as the registry words them." }),
  created: nullableText.meta({ description: "ISO 8601, UTC." }),
  updated: nullableText,
  expires: nullableText,
  nameservers: z.array(z.string()),
  dnssec: z.object({
    signed: z.boolean(),
    ds: z.array(z.object({ keyTag: z.number(), algorithm: z.number(), digestType: z.number(), digest: z.string() })),
  }),
  registrant: z
    .object({
      name: nullableText,
      organization: nullableText,
      email: nullableText,
      phone: nullableText,
      street: z.array(z.string()),
      city: nullableText,
      region: nullableText,
      postalCode: nullableText,
      country: nullableText,
      redacted: z.array(z.string()).meta({ description: "What the registry says it withheld (RFC 9537 names)." }),
    })
    .nullable(),
  source: z.enum(["rdap", "whois"]),
  rdapUrl: nullableText.meta({ description: "The registry RDAP URL answered from; null for a port-43 answer." }),
});
export type WhoisRecord = z.infer<typeof WhoisRecordSchema>;
