/**
 * Every hosted API's operations, found by folder: `workers/hosted/<slug>/index.ts` exporting
 * `definition`. Adding an API is a registry entry plus its folder; nothing else is edited but the
 * route table, which a test writes (route-table.ts).
 *
 * Loaded on first use, one API at a time (decision 064): an API's folder holds its zod schemas,
 * built when the module is evaluated, and its engines (image codecs, the SVG renderer, their
 * WebAssembly), so loading them all at startup cost every cold isolate most of its startup CPU.
 * The bundler puts each folder in chunks of its own; the first call of an API loads its chunks,
 * and later calls in the isolate reuse them.
 */
import type { HostedApiDefinition } from "./definition";
import { HOSTED_APIS } from "./registry";

const loaders = import.meta.glob<HostedApiDefinition>("./*/index.ts", { import: "definition" });

/** Each API's loader by its folder's name, which is its slug; in folder order, as the route table lists them. */
const LOADERS = new Map(Object.entries(loaders).map(([path, load]) => [path.split("/")[1] ?? path, load]));

/** The slugs that have a definition (an API in the registry may not be served here yet). */
export const DEFINED_SLUGS: readonly string[] = [...LOADERS.keys()];

const loaded = new Map<string, Promise<HostedApiDefinition>>();

/** The API's definition, loaded once per isolate; undefined for a slug without a folder. */
export function loadDefinition(slug: string): Promise<HostedApiDefinition | undefined> {
  const load = LOADERS.get(slug);
  if (!load) return Promise.resolve(undefined);
  let definition = loaded.get(slug);
  if (!definition) {
    definition = load().then((module) => checked(slug, module));
    // A failed load is not kept: the next call tries again.
    definition.catch(() => loaded.delete(slug));
    loaded.set(slug, definition);
  }
  return definition;
}

/** Every definition, in folder order: OpenAPI, the docs' lists and the tests that walk them all. */
export function loadDefinitions(): Promise<HostedApiDefinition[]> {
  return Promise.all(DEFINED_SLUGS.map(async (slug) => (await loadDefinition(slug)) as HostedApiDefinition));
}

function checked(folder: string, definition: HostedApiDefinition | undefined): HostedApiDefinition {
  if (!definition || definition.slug !== folder || !HOSTED_APIS.some((api) => api.slug === folder)) {
    throw new Error(
      `workers/hosted/${folder}/index.ts must export a definition whose slug is ${folder}, in the registry`,
    );
  }
  return definition;
}
