/**
 * A local stand-in for the ECB's feed, for development and tests: it serves the three files in
 * the ECB's own XML (namespaces, nesting, single-quoted attributes, newest day first) from a
 * list of days, and can be told to fail the ways the real one can (an HTTP error, a hang, a
 * dropped connection, a document that is not the feed). Reached only through `loadFakes()`:
 * a production build does not hold it.
 */
import { FAKE_ECB_BASE_URL, FEED_FILES, type DayRates, type FeedKind } from "./feed";
import { fixtureDays } from "./fixture";

export type FakeEcbAnswer = "ok" | "http-500" | "http-404" | "malformed" | "empty" | "hang" | "network-error";

/** The ECB's document for these days, in its own layout. */
export function ecbXml(days: readonly DayRates[], sender = "European Central Bank"): string {
  const cubes = [...days]
    .sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0))
    .map(
      (day) =>
        `\t\t<Cube time='${day.date}'>\n` +
        Object.entries(day.rates)
          .map(([currency, rate]) => `\t\t\t<Cube currency='${currency}' rate='${rate}'/>\n`)
          .join("") +
        `\t\t</Cube>\n`,
    )
    .join("");
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">\n` +
    `\t<gesmes:subject>Reference rates</gesmes:subject>\n` +
    `\t<gesmes:Sender>\n\t\t<gesmes:name>${sender}</gesmes:name>\n\t</gesmes:Sender>\n` +
    `\t<Cube>\n${cubes}\t</Cube>\n</gesmes:Envelope>\n`
  );
}

/** Which days each file holds: the newest, those of the newest 90 calendar days, or all. */
export function daysOfFile(days: readonly DayRates[], kind: FeedKind): DayRates[] {
  const sorted = [...days].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const newest = sorted.at(-1);
  if (!newest) return [];
  if (kind === "daily") return [newest];
  if (kind === "hist") return sorted;
  const cutoff = new Date(Date.parse(`${newest.date}T00:00:00Z`) - 90 * 86_400_000).toISOString().slice(0, 10);
  return sorted.filter((day) => day.date > cutoff);
}

export interface FakeEcbOptions {
  /** The days it publishes; the fixture's (./fixture.ts) for `now` unless given. */
  days?: readonly DayRates[];
  /** Answers in order, one per request; "ok" once they run out. */
  script?: FakeEcbAnswer[];
  now?: () => number;
}

/** The fake as a `fetch` (what `httpEcbFeed` takes), with the URLs it was asked for. */
export function createFakeEcbFetch(options: FakeEcbOptions = {}): typeof fetch & { requests: string[] } {
  const script = [...(options.script ?? [])];
  const requests: string[] = [];
  const fake = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    requests.push(request.url);
    const file = Object.entries(FEED_FILES).find(([, name]) => request.url === `${FAKE_ECB_BASE_URL}/${name}`);
    if (!file) throw new TypeError(`The fake ECB feed refuses ${request.method} ${request.url}`);
    const answer = script.shift() ?? "ok";
    switch (answer) {
      case "http-500":
        return new Response("Internal Server Error", { status: 500 });
      case "http-404":
        return new Response("Not Found", { status: 404 });
      case "malformed":
        return new Response("<html><body>Service temporarily unavailable</body></html>", {
          headers: { "content-type": "text/html" },
        });
      case "empty":
        return new Response(ecbXml([]), { headers: { "content-type": "text/xml" } });
      case "network-error":
        throw new TypeError("Network connection lost.");
      case "hang":
        return new Promise<Response>((_, reject) => {
          const signal = init?.signal ?? request.signal;
          signal.addEventListener("abort", () => reject(signal.reason), { once: true });
        });
      case "ok": {
        const days = options.days ?? fixtureDays((options.now ?? Date.now)());
        // The sender says what this is: the fixture's rates are made up, except where ./fixture.ts says otherwise.
        return new Response(ecbXml(daysOfFile(days, file[0] as FeedKind), "Portico's fake ECB feed (fixture rates)"), {
          headers: { "content-type": "text/xml" },
        });
      }
    }
  };
  return Object.assign(fake as typeof fetch, { requests });
}
