/**
 * A domain's registration and a lookup's outcome are the WHOIS Lookup's capability types,
 * declared on the API's side (workers/hosted/capabilities.ts) and implemented here.
 */
import type { RegistrarRecord } from "~workers/hosted/capabilities";

export type {
  DsRecord,
  LookupFailure,
  LookupOutcome,
  RegistrantRecord,
  RegistrarRecord,
  RegistrationRecord,
} from "~workers/hosted/capabilities";

export const emptyRegistrar = (): RegistrarRecord => ({
  name: null,
  ianaId: null,
  url: null,
  abuseEmail: null,
  abusePhone: null,
});

/** Dates as ISO 8601 in UTC; what does not parse as a date is dropped rather than passed on. */
export function isoDate(value: string | null | undefined): string | null {
  if (!value) return null;
  let trimmed = value.trim();
  // JPRS prints Japan's time with its zone's name ("2025/06/01 01:05:04 (JST)"): UTC+9.
  const jst = /^(\d{4})\/(\d{2})\/(\d{2}) (\d{2}:\d{2}(?::\d{2})?) \(JST\)$/.exec(trimmed);
  if (jst) trimmed = `${jst[1]}-${jst[2]}-${jst[3]}T${jst[4]}+09:00`;
  // Bare dates (2031-08-13) and WHOIS's "2024-01-02 03:04:05" read as UTC, which is what the
  // registries that print them mean (.it, .jp print local time with no zone; UTC is the honest reading).
  const normalised = /^\d{4}-\d{2}-\d{2}$/.test(trimmed)
    ? `${trimmed}T00:00:00Z`
    : /^\d{4}[-/.]\d{2}[-/.]\d{2}[ T]\d{2}:\d{2}(:\d{2})?$/.test(trimmed)
      ? `${trimmed.slice(0, 10).replace(/[/.]/g, "-")}T${trimmed.slice(11)}Z`
      : /^\d{4}\/\d{2}\/\d{2}$/.test(trimmed) || /^\d{4}\.\d{2}\.\d{2}$/.test(trimmed)
        ? `${trimmed.replace(/[/.]/g, "-")}T00:00:00Z`
        : trimmed;
  const time = Date.parse(normalised);
  return Number.isFinite(time) ? new Date(time).toISOString() : null;
}
