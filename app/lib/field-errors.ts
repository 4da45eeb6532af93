/**
 * Field messages of a failed validation: the first message per field, keyed by the field's
 * dotted path (`customer_details.customer_phone`); a failure of the whole value goes under
 * `root`. One rule for the pages (a message beside each field) and the API (`errors` of an
 * invalid-input problem), so both name fields alike. Free of zod, like contact-rules.ts, so a
 * page can use it without zod in its bundle (docs/decisions/007-shared-form-rules-without-zod.md).
 */
export interface FieldIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

export function firstErrorPerField(issues: readonly FieldIssue[], root = "form"): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) errors[issue.path.map(String).join(".") || root] ??= issue.message;
  return errors;
}
