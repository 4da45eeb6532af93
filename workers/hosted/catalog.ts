/**
 * The registry as the docs pages present it: APIs grouped by plan group, each with the
 * plans that may call it. Pure data, so loaders can hand it to the page as it is.
 */
import {
  FREE_PLAN_FREEMIUM_CAP,
  PLAN_GROUP_LABELS,
  PLANS,
  plansIncludingGroup,
  type PlanGroup,
} from "~workers/platform/plans";
import { docsPath, findHostedApi, HOSTED_APIS, type HostedApi } from "./registry";

export interface CatalogEntry {
  slug: string;
  name: string;
  description: string;
  icon: string;
  group: PlanGroup;
  groupLabel: string;
  docsPath: string;
  apiPath: string;
  plans: { id: string; name: string; monthlyQuota: number; perSecond: number; note?: string }[];
}

const GROUP_ORDER: PlanGroup[] = ["free", "freemium", "premium"];

const GROUP_SUMMARIES: Record<PlanGroup, string> = {
  free: "On every plan, Free included.",
  freemium: `On every plan; the Free plan may spend up to ${FREE_PLAN_FREEMIUM_CAP} of its monthly calls on these.`,
  premium: "On the Standard and Premium plans.",
};

export function catalogEntry(api: HostedApi): CatalogEntry {
  return {
    slug: api.slug,
    name: api.name,
    description: api.description,
    icon: api.icon,
    group: api.group,
    groupLabel: PLAN_GROUP_LABELS[api.group],
    docsPath: docsPath(api),
    apiPath: `/api/v1/${api.slug}`,
    plans: plansIncludingGroup(api.group).map((id) => {
      const plan = PLANS[id];
      const capped = id === "free" && api.group === "freemium";
      return {
        id,
        name: plan.name,
        monthlyQuota: plan.monthlyQuota,
        perSecond: plan.perSecond,
        ...(capped ? { note: `at most ${FREE_PLAN_FREEMIUM_CAP} calls a month to freemium APIs` } : {}),
      };
    }),
  };
}

export interface CatalogGroup {
  group: PlanGroup;
  label: string;
  summary: string;
  apis: CatalogEntry[];
}

/** Every API by group, optionally only those whose name or description holds `query`. */
export function catalogByGroup(query = ""): CatalogGroup[] {
  const needle = query.trim().toLowerCase();
  const matches = (api: HostedApi) =>
    !needle || api.name.toLowerCase().includes(needle) || api.description.toLowerCase().includes(needle);
  return GROUP_ORDER.map((group) => ({
    group,
    label: PLAN_GROUP_LABELS[group],
    summary: GROUP_SUMMARIES[group],
    apis: HOSTED_APIS.filter((api: HostedApi) => api.group === group && matches(api)).map(catalogEntry),
  }));
}

export type CatalogLookup =
  { kind: "found"; entry: CatalogEntry } | { kind: "alias"; canonicalPath: string } | { kind: "missing" };

export function lookupCatalogEntry(slugOrAlias: string): CatalogLookup {
  const api = findHostedApi(slugOrAlias);
  if (!api) return { kind: "missing" };
  if (api.slug !== slugOrAlias) return { kind: "alias", canonicalPath: docsPath(api) };
  return { kind: "found", entry: catalogEntry(api) };
}
