/**
 * Writes workers/providers/ecb/snapshot.json, the ECB rates bundled with the Worker
 * (docs/decisions/049-currency-converter-from-ecb-rates.md), from the ECB's own feed. Run it on
 * a machine that reaches www.ecb.europa.eu, then commit the file:
 *
 *   node scripts/refresh-ecb-snapshot.ts              the 90-day file (about 64 business days)
 *   node scripts/refresh-ecb-snapshot.ts --full       the whole history since 1999 (about 2 MB
 *                                                     of JSON, 0.7 MB gzip: see decision 049
 *                                                     before bundling it)
 *   node scripts/refresh-ecb-snapshot.ts --file eurofxref-hist.xml [--out path]
 *                                                     from a file already downloaded (unzip
 *                                                     eurofxref-hist.zip's CSV is not read: use
 *                                                     the XML)
 *
 * The parsing mirrors workers/providers/ecb/feed.ts (which Node cannot import here: it uses the
 * Worker's path aliases): `Cube` elements with `time`, `currency` and `rate`, quoted with ' as
 * the ECB does, or ". A document that is not the feed writes nothing.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..");
const BASE = "https://www.ecb.europa.eu/stats/eurofxref";
const args = process.argv.slice(2);
const option = (name: string) => {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
};
const full = args.includes("--full");
const file = option("--file");
const out = option("--out") ?? join(ROOT, "workers", "providers", "ecb", "snapshot.json");

type Day = { date: string; rates: Record<string, number> };

function parse(xml: string): Day[] {
  if (!xml.includes("<gesmes:Envelope")) throw new Error("not an ECB reference-rates document (no gesmes:Envelope)");
  const days = new Map<string, Record<string, number>>();
  let current: Record<string, number> | null = null;
  for (const match of xml.matchAll(/<Cube\b([^>]*)>/g)) {
    const attributes = new Map<string, string>();
    for (const attribute of (match[1] ?? "").matchAll(/([A-Za-z_][\w.-]*)\s*=\s*(?:'([^']*)'|"([^"]*)")/g)) {
      attributes.set(attribute[1] ?? "", attribute[2] ?? attribute[3] ?? "");
    }
    const time = attributes.get("time");
    if (time !== undefined) {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(time) || Number.isNaN(Date.parse(`${time}T00:00:00Z`)))
        throw new Error(`bad day ${time}`);
      if (days.has(time)) throw new Error(`${time} appears twice`);
      days.set(time, (current = {}));
      continue;
    }
    const currency = attributes.get("currency");
    const rate = attributes.get("rate");
    if (currency === undefined && rate === undefined) continue;
    if (!current) throw new Error("a rate before any day");
    if (!currency || !/^[A-Z]{3}$/.test(currency) || currency === "EUR") throw new Error(`bad currency ${currency}`);
    if (!rate || !/^\d{1,12}(?:\.\d{1,12})?$/.test(rate) || !(Number(rate) > 0))
      throw new Error(`bad ${currency} rate ${rate}`);
    current[currency] = Number(rate);
  }
  if (days.size === 0) throw new Error("the document holds no day");
  return [...days].map(([date, rates]) => ({ date, rates })).sort((a, b) => (a.date < b.date ? -1 : 1));
}

async function main() {
  let xml: string;
  let source: string;
  if (file) {
    xml = readFileSync(file, "utf8");
    source = `the ECB's ${file.split("/").at(-1)} (read from a downloaded copy)`;
  } else {
    const url = `${BASE}/${full ? "eurofxref-hist.xml" : "eurofxref-hist-90d.xml"}`;
    const response = await fetch(url, { headers: { accept: "application/xml" } });
    if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
    xml = await response.text();
    source = url;
  }
  const days = parse(xml);
  const currencies = [...new Set(days.flatMap((day) => Object.keys(day.rates)))].sort();
  const snapshot = {
    source,
    fetchedAt: new Date().toISOString(),
    currencies,
    days: days.map((day) => [day.date, currencies.map((code) => day.rates[code] ?? null)]),
  };
  // One day a line: diffs of a refreshed snapshot show the days added.
  const text =
    `{\n  "source": ${JSON.stringify(snapshot.source)},\n  "fetchedAt": ${JSON.stringify(snapshot.fetchedAt)},\n` +
    `  "currencies": ${JSON.stringify(currencies)},\n  "days": [\n` +
    snapshot.days.map((day) => `    ${JSON.stringify(day)}`).join(",\n") +
    `\n  ]\n}\n`;
  writeFileSync(out, text);
  console.log(`${out}: ${days.length} days, ${days[0]?.date} to ${days.at(-1)?.date}, ${currencies.length} currencies`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
