import { z } from "zod";
import { RegistrationRecordSchema } from "../registration-record";
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

/**
 * The answer: the registration record (its fields and their descriptions are declared once, in
 * ../registration-record.ts) under the name asked, in both forms, without our routing details
 * (the registrar's RDAP URL, the port-43 server). Spread in this order so the OpenAPI document
 * lists the fields as it always has.
 */
export const WhoisRecordSchema = z.object({
  domain: z.string().meta({ description: "The name as registries hold it: A-labels, lower case." }),
  unicodeName: z.string().meta({ description: "The same name in Unicode (equal to `domain` for an ASCII name)." }),
  registered: z.literal(true),
  ...RegistrationRecordSchema.omit({ registrarRdapUrl: true, whoisServer: true }).shape,
});
export type WhoisRecord = z.infer<typeof WhoisRecordSchema>;
