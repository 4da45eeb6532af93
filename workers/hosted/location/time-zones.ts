/**
 * A zone's offsets and names, read from the runtime's time-zone database (`Intl`, which workerd
 * builds from ICU and updates with its tzdata) rather than from a frozen dataset: country-state-city
 * shipped daylight offsets for southern zones (Sydney +11:00), offsets changed years ago (Almaty,
 * Amman, Volgograd, Nuuk…) and names cut off mid-parenthesis.
 *
 * The standard offset is the smaller of the zone's offsets on 1 January and 1 July of the year of
 * `now`: the clock-change meaning of "winter time", whichever hemisphere. For Europe/Dublin, whose
 * tzdata main form calls summer (+01:00, "Irish Standard Time") standard and winter a negative
 * daylight saving, this rule answers +00:00 standard and +01:00 as daylight: the usual reading of
 * Irish clock changes, and that of tzdata's rearguard form, which ICU is built from. A zone that
 * changes its offset for part of the year at neither sample (Casablanca during Ramadan) keeps
 * the offset of the samples as standard.
 */
import type { Timezone } from "./schema";

/** Noon UTC, so no sample lands on a transition day's ambiguous hours in any zone. */
function sampleDates(now: Date): [january: Date, july: Date] {
  const year = now.getUTCFullYear();
  return [new Date(Date.UTC(year, 0, 1, 12)), new Date(Date.UTC(year, 6, 1, 12))];
}

/** Building a formatter costs far more than formatting; the set of zones is fixed, so they are kept. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(
  locale: string,
  timeZone: string,
  timeZoneName: "longOffset" | "long" | "short",
): Intl.DateTimeFormat {
  const key = `${locale}\u0000${timeZone}\u0000${timeZoneName}`;
  let format = formatters.get(key);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(locale, { timeZone, timeZoneName });
    formatters.set(key, format);
  }
  return format;
}

function zoneNamePart(format: Intl.DateTimeFormat, date: Date): string {
  return format.formatToParts(date).find((part) => part.type === "timeZoneName")?.value ?? "";
}

/** Minutes east of UTC: "GMT+05:30" → 330, "GMT" (zero) → 0. */
export function offsetMinutes(timeZone: string, date: Date): number {
  const text = zoneNamePart(formatter("en-US", timeZone, "longOffset"), date);
  const match = /^GMT(?:([+-])(\d{2}):(\d{2}))?$/.exec(text);
  if (match === null) throw new RangeError(`Unexpected offset ${text} for ${timeZone}`);
  if (match[1] === undefined) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === "-" ? -minutes : minutes;
}

/** "UTC+05:30", "UTC-03:00", and "UTC±00" for zero, as the answer has always written them. */
export function formatOffset(minutes: number): string {
  if (minutes === 0) return "UTC±00";
  const sign = minutes < 0 ? "-" : "+";
  const absolute = Math.abs(minutes);
  const hours = String(Math.floor(absolute / 60)).padStart(2, "0");
  return `UTC${sign}${hours}:${String(absolute % 60).padStart(2, "0")}`;
}

/**
 * The English of the zone's country ("en-AU") is asked for the abbreviation, as CLDR has
 * abbreviations (AEST, IST, BST) only where they are in common use there; elsewhere it writes the
 * offset ("GMT+3") rather than invent one.
 */
function abbreviation(timeZone: string, cca2: string, date: Date): string {
  return zoneNamePart(formatter(`en-${cca2}`, timeZone, "short"), date);
}

function longName(timeZone: string, date: Date): string {
  return zoneNamePart(formatter("en-US", timeZone, "long"), date);
}

/**
 * Describing all 428 zones costs about 3,000 `formatToParts` calls (some 20 ms), so the answers
 * of the current minute are kept: tzdata's transitions all fall on whole minutes, so no zone's
 * description changes within one.
 */
let cachedMinute = Number.NaN;
const described = new Map<string, Timezone>();

/**
 * `zone` as it stands at `now`: its standard offset, abbreviation and name, and its current
 * offset and name with `dst` true when they differ from standard. Throws RangeError for a zone
 * the runtime does not know.
 */
export function describeZone(timeZone: string, cca2: string, now: Date): Timezone {
  const minute = Math.floor(now.getTime() / 60_000);
  if (minute !== cachedMinute) {
    cachedMinute = minute;
    described.clear();
  }
  const key = `${timeZone}\u0000${cca2}`;
  let description = described.get(key);
  if (description === undefined) {
    description = computeZone(timeZone, cca2, now);
    described.set(key, description);
  }
  // A copy, so no caller can alter what the next request reads.
  return { ...description };
}

function computeZone(timeZone: string, cca2: string, now: Date): Timezone {
  const [january, july] = sampleDates(now);
  const januaryOffset = offsetMinutes(timeZone, january);
  const julyOffset = offsetMinutes(timeZone, july);
  const standardDate = julyOffset < januaryOffset ? july : january;
  const standard = Math.min(januaryOffset, julyOffset);
  const current = offsetMinutes(timeZone, now);
  return {
    zone: timeZone,
    utcOffset: formatOffset(standard),
    abbreviation: abbreviation(timeZone, cca2, standardDate),
    name: longName(timeZone, standardDate),
    currentOffset: formatOffset(current),
    currentAbbreviation: abbreviation(timeZone, cca2, now),
    currentName: longName(timeZone, now),
    dst: current !== standard,
  };
}
