/**
 * Loads the location API's `cities` table (migrations/0007_create_cities.sql) from
 * country-state-city's city list, which does not fit in the Worker
 * (docs/decisions/011-cities-from-d1.md). Writes batched `INSERT … ON CONFLICT DO NOTHING` files
 * into a temporary folder and runs `wrangler d1 execute DB --file` for each; every argument is
 * passed on to wrangler:
 *
 *   node scripts/seed-cities.ts --local
 *   node scripts/seed-cities.ts --remote --env production
 *
 * Re-running is harmless: the primary key (country, state, name) skips rows already there, so an
 * interrupted seed is finished by running it again.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { z } from "zod";

const ROOT = join(import.meta.dirname, "..");
const WRANGLER = join(ROOT, "node_modules", ".bin", "wrangler");
const ASSETS = join(ROOT, "node_modules", "country-state-city", "lib", "assets");
/**
 * Each `wrangler d1 execute` costs about 2 s before any SQL runs, so files are large; D1's limit
 * that matters is per statement (100,000 bytes), kept by STATEMENT_MAX_BYTES.
 */
const ROWS_PER_FILE = 10_000;
const STATEMENT_MAX_BYTES = 50_000;
const INSERT_HEAD = "INSERT INTO cities (country_code, state_code, name, latitude, longitude) VALUES\n";
const INSERT_TAIL = "\nON CONFLICT DO NOTHING;\n";

/** The package stores each city as [name, countryCode, stateCode, latitude, longitude] (lib/city.js's KEYS). */
const CityListSchema = z.array(
  z.tuple([
    // Quotes are doubled in the SQL; a control character (NUL above all) would mean a corrupt list.
    z.string().regex(/^[^\p{Cc}]+$/u, "a name without control characters"),
    z.string().regex(/^[A-Z]{2}$/),
    z.string().regex(/^[A-Za-z0-9-]{1,10}$/),
    z.string().nullable(),
    z.string().nullable(),
  ]),
);
const StateListSchema = z.array(z.object({ countryCode: z.string() }));
/** What `wrangler d1 execute --command … --json` prints for one SELECT. */
const CountOutputSchema = z.array(z.object({ results: z.array(z.object({ n: z.number() })) }));

type CityTuple = z.infer<typeof CityListSchema>[number];

const run = promisify(execFile);
const passThrough = process.argv.slice(2);

if (passThrough.some((arg) => arg === "--help" || arg === "-h")) {
  console.log(
    "Usage: node scripts/seed-cities.ts [wrangler d1 execute options, e.g. --local or --remote --env production]",
  );
  process.exit(0);
}
if (passThrough.some((arg) => /^--(file|command)(=|$)/.test(arg))) {
  console.error(
    "seed-cities: --file and --command are the script's own; pass only where to seed (--local, --remote, --env …).",
  );
  process.exit(2);
}

function sqlText(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/** Coordinates are strings in the dataset ("12.97194000"); anything not a finite number is stored as NULL. */
function sqlReal(value: string | null): string {
  const number = value === null || value.trim() === "" ? Number.NaN : Number(value);
  return Number.isFinite(number) ? String(number) : "NULL";
}

function sqlRow([name, countryCode, stateCode, latitude, longitude]: CityTuple): string {
  return `(${sqlText(countryCode)}, ${sqlText(stateCode)}, ${sqlText(name)}, ${sqlReal(latitude)}, ${sqlReal(longitude)})`;
}

/** One file's SQL: multi-row INSERTs, each under STATEMENT_MAX_BYTES. */
function batchSql(cities: readonly CityTuple[]): string {
  const statements: string[] = [];
  let rows: string[] = [];
  let bytes = 0;
  const flush = () => {
    if (rows.length > 0) statements.push(INSERT_HEAD + rows.join(",\n") + INSERT_TAIL);
    rows = [];
    bytes = Buffer.byteLength(INSERT_HEAD + INSERT_TAIL);
  };
  flush();
  for (const city of cities) {
    const row = sqlRow(city);
    const rowBytes = Buffer.byteLength(row) + 2;
    if (rows.length > 0 && bytes + rowBytes > STATEMENT_MAX_BYTES) flush();
    rows.push(row);
    bytes += rowBytes;
  }
  flush();
  return statements.join("");
}

async function wrangler(args: readonly string[]): Promise<string> {
  try {
    // --yes: the output is captured, so a confirmation prompt would wait unseen.
    const { stdout } = await run(
      process.execPath,
      [WRANGLER, "d1", "execute", "DB", ...args, "--yes", ...passThrough],
      {
        cwd: ROOT,
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    return stdout;
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string; message: string };
    const output = `${failure.stdout ?? ""}${failure.stderr ?? ""}`.trim() || failure.message;
    console.error(output);
    if (/no such table: cities/.test(output)) {
      console.error(
        "seed-cities: the cities table is missing; apply the migrations first (wrangler d1 migrations apply DB …).",
      );
    }
    throw new Error(`wrangler d1 execute ${args.join(" ")} failed`);
  }
}

async function countCities(): Promise<number> {
  const output = await wrangler(["--command", "SELECT COUNT(*) AS n FROM cities", "--json"]);
  let json: unknown;
  try {
    json = JSON.parse(output);
  } catch {
    json = undefined;
  }
  const parsed = CountOutputSchema.safeParse(json);
  const count = parsed.success ? parsed.data[0]?.results[0]?.n : undefined;
  if (count === undefined) throw new Error(`Unexpected output from wrangler: ${output}`);
  return count;
}

/**
 * The Worker answers an empty list, rather than "not loaded", for countries the dataset gives
 * states but no cities (COUNTRIES_WITHOUT_CITY_DATA). Its tests cannot load this 8 MB list, so
 * the check is made here, where the list is read anyway. That module has only erasable syntax
 * and type-only imports, so Node's type stripping loads it directly.
 */
async function checkCountriesWithoutCities(cities: readonly CityTuple[]): Promise<void> {
  const states = StateListSchema.parse(JSON.parse(readFileSync(join(ASSETS, "state.json"), "utf8")));
  const withCities = new Set(cities.map((city) => city[1]));
  const expected = [...new Set(states.map((state) => state.countryCode))]
    .filter((code) => !withCities.has(code))
    .sort();
  const module: unknown = await import(new URL("../workers/hosted/location/cities.ts", import.meta.url).href);
  const declared = z.object({ COUNTRIES_WITHOUT_CITY_DATA: z.set(z.string()) }).parse(module);
  const actual = [...declared.COUNTRIES_WITHOUT_CITY_DATA].sort();
  if (actual.join() !== expected.join()) {
    console.warn(
      `seed-cities: warning: COUNTRIES_WITHOUT_CITY_DATA in workers/hosted/location/cities.ts is ${actual.join(" ")}, ` +
        `but the package has states and no cities for ${expected.join(" ")}; update it so those countries answer an empty list.`,
    );
  }
}

async function seed(): Promise<void> {
  const started = performance.now();
  const seconds = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;

  const cities = CityListSchema.parse(JSON.parse(readFileSync(join(ASSETS, "city.json"), "utf8")));
  await checkCountriesWithoutCities(cities);
  const where = passThrough.length > 0 ? passThrough.join(" ") : "local, wrangler's default";
  console.log(`seed-cities: ${cities.length.toLocaleString("en")} cities from country-state-city into D1 (${where})`);

  const before = await countCities();
  const folder = mkdtempSync(join(tmpdir(), "seed-cities-"));
  try {
    const files = Math.ceil(cities.length / ROWS_PER_FILE);
    for (let index = 0; index < files; index++) {
      const batch = cities.slice(index * ROWS_PER_FILE, (index + 1) * ROWS_PER_FILE);
      const file = join(folder, `cities-${String(index + 1).padStart(3, "0")}.sql`);
      writeFileSync(file, batchSql(batch));
      await wrangler(["--file", file]);
      const first = batch[0]?.[1] ?? "";
      const last = batch[batch.length - 1]?.[1] ?? "";
      const done = Math.min((index + 1) * ROWS_PER_FILE, cities.length).toLocaleString("en");
      console.log(`  file ${index + 1}/${files}: countries ${first}–${last}, ${done} rows done (${seconds()})`);
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  const after = await countCities();
  console.log(
    `seed-cities: the table holds ${after.toLocaleString("en")} cities, ${(after - before).toLocaleString("en")} of them new (${seconds()})`,
  );
}

try {
  await seed();
} catch (error) {
  console.error(`seed-cities: ${error instanceof Error ? error.message : String(error)}`);
  console.error("Nothing is left half-done that a re-run would not finish: rows already loaded are skipped.");
  process.exitCode = 1;
}
