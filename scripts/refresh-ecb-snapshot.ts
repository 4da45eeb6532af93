/**
 * Writes workers/providers/ecb/snapshot.json, the ECB rates bundled with the Worker
 * (docs/decisions/049-currency-converter-from-ecb-rates.md), from the ECB's own history, then
 * commit the file:
 *
 *   node scripts/refresh-ecb-snapshot.ts          fetches www.ecb.europa.eu's eurofxref-hist.zip
 *                                                 and keeps the newest 90 business days
 *   node scripts/refresh-ecb-snapshot.ts --file eurofxref-hist.zip [--source "where it came from"]
 *                                                 from a copy already downloaded: the zip, the CSV
 *                                                 inside it, the daily eurofxref.csv, or any of the
 *                                                 ECB's XML files (eurofxref-hist.xml, …-90d.xml)
 *   --days N     keep the newest N business days instead of 90
 *   --full       keep the whole history since 1999 (about 6,980 days, 1.6 MB of JSON, ~0.5 MB
 *                gzip: see decision 049 before bundling it)
 *   --out path   write elsewhere
 *
 * The ECB's CSV is one row a day, newest first, under a header `Date,USD,JPY,…` whose columns are
 * every currency it has ever quoted, "N/A" where it published none that day, and a trailing comma
 * on every line; the daily file spells the date "13 April 2026" and pads cells with a space. The
 * XML parsing mirrors workers/providers/ecb/feed.ts (which Node cannot import here: it uses the
 * Worker's path aliases): `Cube` elements with `time`, `currency` and `rate`, quoted with ' as
 * the ECB does, or ". A document that is neither writes nothing, as does a bad date or rate.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { inflateRawSync } from "node:zlib";

const ROOT = join(import.meta.dirname, "..");
const HIST_ZIP = "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist.zip";
const args = process.argv.slice(2);
const option = (name: string) => {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
};
const full = args.includes("--full");
const keep = full ? Infinity : Number(option("--days") ?? 90);
if (!(keep > 0)) throw new Error("--days takes a positive number");
const file = option("--file");
const sourceNote = option("--source");
const out = option("--out") ?? join(ROOT, "workers", "providers", "ecb", "snapshot.json");

type Day = { date: string; rates: Record<string, number> };

function checkDate(date: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10) !== date)
    throw new Error(`bad day ${date}`);
  return date;
}

function checkRate(currency: string, rate: string): number {
  if (!/^[A-Z]{3}$/.test(currency) || currency === "EUR") throw new Error(`bad currency ${currency}`);
  if (!/^\d{1,12}(?:\.\d{1,12})?$/.test(rate) || !(Number(rate) > 0)) throw new Error(`bad ${currency} rate ${rate}`);
  return Number(rate);
}

function parseXml(xml: string): Day[] {
  if (!xml.includes("<gesmes:Envelope")) throw new Error("not an ECB reference-rates document (no gesmes:Envelope)");
  const days: Day[] = [];
  let current: Record<string, number> | null = null;
  for (const match of xml.matchAll(/<Cube\b([^>]*)>/g)) {
    const attributes = new Map<string, string>();
    for (const attribute of (match[1] ?? "").matchAll(/([A-Za-z_][\w.-]*)\s*=\s*(?:'([^']*)'|"([^"]*)")/g)) {
      attributes.set(attribute[1] ?? "", attribute[2] ?? attribute[3] ?? "");
    }
    const time = attributes.get("time");
    if (time !== undefined) {
      days.push({ date: checkDate(time), rates: (current = {}) });
      continue;
    }
    const currency = attributes.get("currency");
    const rate = attributes.get("rate");
    if (currency === undefined && rate === undefined) continue;
    if (!current) throw new Error("a rate before any day");
    current[currency ?? ""] = checkRate(currency ?? "", rate ?? "");
  }
  return days;
}

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** "2026-04-13" as the history writes it, or "13 April 2026" as the daily file does. */
function csvDate(text: string): string {
  const spelled = /^(\d{1,2}) ([A-Z][a-z]+) (\d{4})$/.exec(text);
  if (!spelled) return checkDate(text);
  const month = MONTHS.indexOf(spelled[2] ?? "") + 1;
  if (month === 0) throw new Error(`bad day ${text}`);
  return checkDate(`${spelled[3]}-${String(month).padStart(2, "0")}-${(spelled[1] ?? "").padStart(2, "0")}`);
}

function parseCsv(csv: string): Day[] {
  const [head = "", ...lines] = csv.split(/\r?\n/).filter((line) => line.trim() !== "");
  const columns = head.split(",").map((cell) => cell.trim());
  if (columns[0] !== "Date") throw new Error("not the ECB's CSV (its first column is Date)");
  return lines.map((line) => {
    const cells = line.split(",").map((cell) => cell.trim());
    const rates: Record<string, number> = {};
    columns.forEach((currency, index) => {
      const cell = cells[index] ?? "";
      // The trailing comma makes an unnamed last column; N/A is a day the currency was not quoted.
      if (index === 0 || (currency === "" && cell === "") || cell === "N/A" || cell === "") return;
      rates[currency] = checkRate(currency, cell);
    });
    return { date: csvDate(cells[0] ?? ""), rates };
  });
}

/** The one file in a zip (the ECB's holds only the CSV), by its central directory. */
function unzipOnly(zip: Buffer): string {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error("not a zip file");
  const entry = zip.readUInt32LE(end + 16);
  if (zip.readUInt32LE(entry) !== 0x02014b50) throw new Error("a zip with no central directory");
  const method = zip.readUInt16LE(entry + 10);
  const size = zip.readUInt32LE(entry + 20);
  const local = zip.readUInt32LE(entry + 42);
  const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
  const data = zip.subarray(start, start + size);
  if (method === 0) return data.toString("utf8");
  if (method === 8) return inflateRawSync(data).toString("utf8");
  throw new Error(`a zip entry compressed by method ${method}`);
}

function parse(bytes: Buffer): Day[] {
  const text = bytes.subarray(0, 2).toString("latin1") === "PK" ? unzipOnly(bytes) : bytes.toString("utf8");
  const days = text.trimStart().startsWith("Date") ? parseCsv(text) : parseXml(text);
  if (days.length === 0) throw new Error("the document holds no day");
  const seen = new Set<string>();
  for (const day of days) {
    if (seen.has(day.date)) throw new Error(`${day.date} appears twice`);
    seen.add(day.date);
    if (Object.keys(day.rates).length === 0) throw new Error(`${day.date} has no rate`);
  }
  return days.sort((a, b) => (a.date < b.date ? -1 : 1));
}

async function main() {
  let bytes: Buffer;
  let origin: string;
  if (file) {
    bytes = readFileSync(file);
    origin = sourceNote ?? `a downloaded copy of ${file.split("/").at(-1)}`;
  } else {
    const response = await fetch(HIST_ZIP);
    if (!response.ok) throw new Error(`${HIST_ZIP} answered HTTP ${response.status}`);
    bytes = Buffer.from(await response.arrayBuffer());
    origin = `${HIST_ZIP}, fetched ${new Date().toISOString().slice(0, 10)}`;
  }
  const all = parse(bytes);
  const days = all.slice(-keep);
  const currencies = [...new Set(days.flatMap((day) => Object.keys(day.rates)))].sort();
  const first = days[0]?.date;
  const last = days.at(-1)?.date;
  const source =
    `European Central Bank, euro foreign exchange reference rates (https://www.ecb.europa.eu/stats/eurofxref/): ` +
    `${full ? "the whole history" : `the newest ${days.length} business day${days.length === 1 ? "" : "s"}`}, ${first} to ${last}, of ${origin}`;
  // One day a line: diffs of a refreshed snapshot show the days added.
  const text =
    `{\n  "source": ${JSON.stringify(source)},\n  "fetchedAt": ${JSON.stringify(file ? null : new Date().toISOString())},\n` +
    `  "currencies": ${JSON.stringify(currencies)},\n  "days": [\n` +
    days
      .map((day) => `    ${JSON.stringify([day.date, currencies.map((code) => day.rates[code] ?? null)])}`)
      .join(",\n") +
    `\n  ]\n}\n`;
  writeFileSync(out, text);
  console.log(
    `${out}: ${days.length} of ${all.length} days, ${first} to ${last}, ${currencies.length} currencies, ${text.length} bytes`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
