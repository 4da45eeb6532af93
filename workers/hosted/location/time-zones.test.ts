import { describe, expect, it } from "vitest";
import { TimezoneSchema } from "./schema";
import { describeZone, formatOffset } from "./time-zones";

/** Fixed instants, so nothing here depends on today's date. */
const JANUARY_2026 = new Date("2026-01-15T12:00:00Z");
const JULY_2026 = new Date("2026-07-15T12:00:00Z");

describe("time zones: standard and current offsets at a fixed date", () => {
  // Independent reference: the zones' rules as IANA tzdata states them, written out here.
  it("Australia/Sydney is +10:00 standard all year, on +11:00 daylight time in the southern summer", () => {
    expect(describeZone("Australia/Sydney", "AU", JANUARY_2026)).toEqual({
      zone: "Australia/Sydney",
      utcOffset: "UTC+10:00",
      abbreviation: "AEST",
      name: "Australian Eastern Standard Time",
      currentOffset: "UTC+11:00",
      currentAbbreviation: "AEDT",
      currentName: "Australian Eastern Daylight Time",
      dst: true,
    });
    expect(describeZone("Australia/Sydney", "AU", JULY_2026)).toMatchObject({
      utcOffset: "UTC+10:00",
      currentOffset: "UTC+10:00",
      currentName: "Australian Eastern Standard Time",
      dst: false,
    });
  });

  it("America/New_York is -05:00 standard, -04:00 in the northern summer", () => {
    expect(describeZone("America/New_York", "US", JANUARY_2026)).toMatchObject({
      utcOffset: "UTC-05:00",
      abbreviation: "EST",
      name: "Eastern Standard Time",
      currentOffset: "UTC-05:00",
      dst: false,
    });
    expect(describeZone("America/New_York", "US", JULY_2026)).toMatchObject({
      utcOffset: "UTC-05:00",
      currentOffset: "UTC-04:00",
      currentAbbreviation: "EDT",
      currentName: "Eastern Daylight Time",
      dst: true,
    });
  });

  it("America/Nuuk is -02:00 standard since 2023, with daylight time -01:00 in summer", () => {
    expect(describeZone("America/Nuuk", "GL", JANUARY_2026)).toMatchObject({ utcOffset: "UTC-02:00", dst: false });
    expect(describeZone("America/Nuuk", "GL", JULY_2026)).toMatchObject({
      utcOffset: "UTC-02:00",
      currentOffset: "UTC-01:00",
      dst: true,
    });
  });

  it("Europe/Dublin follows the winter-is-standard rule despite tzdata's negative daylight saving", () => {
    expect(describeZone("Europe/Dublin", "IE", JANUARY_2026)).toMatchObject({
      utcOffset: "UTC±00",
      name: "Greenwich Mean Time",
      currentOffset: "UTC±00",
      dst: false,
    });
    expect(describeZone("Europe/Dublin", "IE", JULY_2026)).toMatchObject({
      utcOffset: "UTC±00",
      currentOffset: "UTC+01:00",
      dst: true,
    });
  });

  it.each([
    ["Pacific/Apia", "WS", "UTC+13:00"],
    ["Asia/Almaty", "KZ", "UTC+05:00"],
    ["Asia/Amman", "JO", "UTC+03:00"],
    ["Asia/Damascus", "SY", "UTC+03:00"],
    ["Europe/Volgograd", "RU", "UTC+03:00"],
    ["Africa/Juba", "SS", "UTC+02:00"],
    ["America/Chihuahua", "MX", "UTC-06:00"],
  ])("%s (%s) has no daylight saving: %s in January and July", (zone, cca2, offset) => {
    for (const now of [JANUARY_2026, JULY_2026]) {
      expect(describeZone(zone, cca2, now)).toMatchObject({ utcOffset: offset, currentOffset: offset, dst: false });
    }
  });

  it("reads the rules of the year asked about: Almaty was +06:00 and Nuuk -03:00 before they changed", () => {
    expect(describeZone("Asia/Almaty", "KZ", new Date("2023-07-01T12:00:00Z")).utcOffset).toBe("UTC+06:00");
    expect(describeZone("America/Nuuk", "GL", new Date("2022-01-15T12:00:00Z")).utcOffset).toBe("UTC-03:00");
  });

  it("changes at the transition itself: Sydney leaves daylight time at 03:00 AEDT on 5 April 2026 (16:00 UTC the day before)", () => {
    // Asked twice in each minute, so a description kept for the minute must not outlive it.
    for (let round = 0; round < 2; round++) {
      expect(describeZone("Australia/Sydney", "AU", new Date("2026-04-04T15:59:59Z"))).toMatchObject({
        currentOffset: "UTC+11:00",
        dst: true,
      });
      expect(describeZone("Australia/Sydney", "AU", new Date("2026-04-04T16:00:00Z"))).toMatchObject({
        currentOffset: "UTC+10:00",
        dst: false,
      });
    }
  });

  it("answers what the output schema promises", () => {
    expect(TimezoneSchema.safeParse(describeZone("Asia/Kolkata", "IN", JULY_2026)).success).toBe(true);
  });

  it("refuses a zone the database does not know, with a RangeError", () => {
    expect(() => describeZone("Mars/Olympus_Mons", "US", JULY_2026)).toThrow(RangeError);
  });
});

describe("time zones: offset notation", () => {
  it.each([
    [0, "UTC±00"],
    [330, "UTC+05:30"],
    [-210, "UTC-03:30"],
    [765, "UTC+12:45"],
    [-600, "UTC-10:00"],
  ])("%i minutes is %s", (minutes, text) => {
    expect(formatOffset(minutes)).toBe(text);
  });
});
