/**
 * The ECB's euro foreign exchange reference rates feed: three XML files of one format under
 * https://www.ecb.europa.eu/stats/eurofxref/ — the latest day, the last 90 days and the whole
 * history since 1999-01-04 (newest day first):
 *
 *   <gesmes:Envelope …><Cube><Cube time='2024-10-10'><Cube currency='USD' rate='1.0932'/>…
 *
 * The ECB writes its attributes in single quotes; the parser takes either quote, as XML does,
 * and reads only `Cube` elements, so the envelope's other content (subject, sender) may change
 * without breaking it. Every failure is a value naming what went wrong, for the cron's log and
 * the API's 502.
 */
import { dayNumber } from "./calendar";

export type FeedKind = "daily" | "hist-90d" | "hist";

export const FEED_FILES: Record<FeedKind, string> = {
  daily: "eurofxref-daily.xml",
  "hist-90d": "eurofxref-hist-90d.xml",
  hist: "eurofxref-hist.xml",
};

export const ECB_BASE_URL = "https://www.ecb.europa.eu/stats/eurofxref";

/** The fake feed's (./fake.ts) base: never resolved, the fake answers it in process. */
export const FAKE_ECB_BASE_URL = "http://ecb.fake.invalid/stats/eurofxref";

/** One published day: units of each currency per euro. */
export interface DayRates {
  date: string;
  rates: Record<string, number>;
}

/** The first and last day the ECB published a currency. */
export interface CurrencySpan {
  code: string;
  first: string;
  last: string;
}

export type FeedFailure = { ok: false; reason: "unreachable" | "timeout" | "status" | "malformed"; detail: string };
export type FeedResult = { ok: true; days: DayRates[] } | FeedFailure;

export interface EcbFeed {
  read(kind: FeedKind, signal?: AbortSignal): Promise<FeedResult>;
}

// Linear scans: a tag, then its attributes; no nesting or backtracking over the document.
const CUBE_TAG = /<Cube\b([^>]*)>/g;
const ATTRIBUTE = /([A-Za-z_][\w.-]*)\s*=\s*(?:'([^']*)'|"([^"]*)")/g;
const CODE = /^[A-Z]{3}$/;
const DECIMAL = /^\d{1,12}(?:\.\d{1,12})?$/;

function attributesOf(text: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const match of text.matchAll(ATTRIBUTE)) attributes.set(match[1] ?? "", match[2] ?? match[3] ?? "");
  return attributes;
}

/** The days in an ECB feed, oldest first; a document that is not one is refused whole. */
export function parseEcbXml(xml: string): FeedResult {
  const malformed = (detail: string): FeedFailure => ({ ok: false, reason: "malformed", detail });
  if (!xml.includes("<gesmes:Envelope")) return malformed("not an ECB reference-rates document (no gesmes:Envelope)");
  const days = new Map<string, Record<string, number>>();
  let current: Record<string, number> | null = null;
  for (const match of xml.matchAll(CUBE_TAG)) {
    const attributes = attributesOf(match[1] ?? "");
    const time = attributes.get("time");
    if (time !== undefined) {
      if (dayNumber(time) === null) return malformed(`a day is dated "${time.slice(0, 20)}"`);
      if (days.has(time)) return malformed(`${time} appears twice`);
      current = {};
      days.set(time, current);
      continue;
    }
    const currency = attributes.get("currency");
    const rate = attributes.get("rate");
    if (currency === undefined && rate === undefined) continue; // the outer <Cube>
    if (!current) return malformed("a rate appears before any day");
    if (currency === undefined || !CODE.test(currency) || currency === "EUR")
      return malformed(`a rate names the currency "${String(currency).slice(0, 10)}"`);
    if (rate === undefined || !DECIMAL.test(rate) || !(Number(rate) > 0))
      return malformed(`${currency}'s rate is "${String(rate).slice(0, 20)}"`);
    current[currency] = Number(rate);
  }
  if (days.size === 0) return malformed("the document holds no day");
  for (const [date, rates] of days) if (Object.keys(rates).length === 0) return malformed(`${date} has no rates`);
  return {
    ok: true,
    days: [...days]
      .map(([date, rates]) => ({ date, rates }))
      .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0)),
  };
}

/** The whole history is ~6 MB: time enough for it on a slow day, short enough for a cron. */
const TIMEOUT_MS: Record<FeedKind, number> = { daily: 15_000, "hist-90d": 20_000, hist: 60_000 };

/** The feed over HTTP from `baseUrl` (the ECB's own, or the fake's in development and tests). */
export function httpEcbFeed(
  fetcher: typeof fetch,
  baseUrl: string = ECB_BASE_URL,
  timeoutsMs: Record<FeedKind, number> = TIMEOUT_MS,
): EcbFeed {
  const base = baseUrl.replace(/\/+$/, "");
  return {
    async read(kind, signal) {
      const url = `${base}/${FEED_FILES[kind]}`;
      const timeout = AbortSignal.timeout(timeoutsMs[kind]);
      const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
      let response: Response;
      try {
        response = await fetcher(url, { headers: { accept: "application/xml, text/xml" }, signal: combined });
      } catch (error) {
        if (timeout.aborted)
          return { ok: false, reason: "timeout", detail: `${url} did not answer in ${timeoutsMs[kind] / 1000} s` };
        return {
          ok: false,
          reason: "unreachable",
          detail: `${url}: ${error instanceof Error ? error.message : String(error)}`,
        };
      }
      if (!response.ok) {
        await response.body?.cancel();
        return { ok: false, reason: "status", detail: `${url} answered HTTP ${response.status}` };
      }
      let text: string;
      try {
        text = await response.text();
      } catch (error) {
        const reason = timeout.aborted ? "timeout" : "unreachable";
        return {
          ok: false,
          reason,
          detail: `${url} broke off: ${error instanceof Error ? error.message : String(error)}`,
        };
      }
      const parsed = parseEcbXml(text);
      return parsed.ok ? parsed : { ...parsed, detail: `${url}: ${parsed.detail}` };
    },
  };
}
