/**
 * Every hosted API's operations, found by folder: `workers/hosted/<slug>/index.ts` exporting
 * `definition`. Adding an API is a registry entry plus its folder; nothing else is edited.
 */
import type { HostedApiDefinition } from "./definition";
import { HOSTED_APIS } from "./registry";

const modules = import.meta.glob<{ definition: HostedApiDefinition }>("./*/index.ts", { eager: true });

export const HOSTED_DEFINITIONS: HostedApiDefinition[] = Object.entries(modules).map(([path, module]) => {
  const definition = module.definition;
  if (!definition || !HOSTED_APIS.some((api) => api.slug === definition.slug)) {
    throw new Error(`${path} must export a definition whose slug is in the registry`);
  }
  return definition;
});

export function findDefinition(slug: string): HostedApiDefinition | undefined {
  return HOSTED_DEFINITIONS.find((definition) => definition.slug === slug);
}
