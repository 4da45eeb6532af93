import { Form, Link } from "react-router";
import { ApiIcon } from "~/components/api-icon";
import { titled } from "~/lib/page-meta";
import { catalogByGroup } from "~workers/hosted/catalog";
import type { Route } from "./+types/route";

export function loader({ request }: Route.LoaderArgs) {
  const query = new URL(request.url).searchParams.get("q")?.slice(0, 100) ?? "";
  return { query, groups: catalogByGroup(query) };
}

export const meta = () => [
  { title: titled("API documentation") },
  {
    name: "description",
    content: "Every Portico API by plan group: what it does, which plans include it, and its docs.",
  },
];

export default function DocsIndex({ loaderData }: Route.ComponentProps) {
  const { query, groups } = loaderData;
  const found = groups.reduce((sum, group) => sum + group.apis.length, 0);
  return (
    <div className="mx-auto max-w-7xl px-4 py-12">
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">API documentation</h1>
      <p className="mt-3 max-w-2xl text-slate-600 dark:text-slate-400">
        Every API answers at <code className="rounded bg-slate-100 px-1 dark:bg-slate-800">/api/v1/&lt;api&gt;</code>{" "}
        with your key in the <code className="rounded bg-slate-100 px-1 dark:bg-slate-800">x-api-key</code> header. Pick
        one to see what it takes and returns.
      </p>
      <Form method="get" className="mt-6 flex max-w-md gap-2" role="search">
        <label htmlFor="docs-q" className="sr-only">
          Filter APIs
        </label>
        <input
          id="docs-q"
          name="q"
          type="search"
          defaultValue={query}
          placeholder="Filter by name or purpose"
          className="w-full rounded-md border border-slate-300 px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-900"
        />
        <button
          type="submit"
          className="rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700"
        >
          Filter
        </button>
      </Form>
      {found === 0 && <p className="mt-8">No API matches “{query}”.</p>}
      {groups
        .filter((group) => group.apis.length > 0)
        .map((group) => (
          <section key={group.group} aria-labelledby={`group-${group.group}`} className="mt-12">
            <h2 id={`group-${group.group}`} className="text-2xl font-semibold">
              {group.label} APIs
            </h2>
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{group.summary}</p>
            <ul className="mt-5 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
              {group.apis.map((api) => (
                <li key={api.slug}>
                  <Link
                    to={api.docsPath}
                    className="flex h-full flex-col rounded-xl border border-slate-200 p-5 hover:border-brand-500 hover:shadow-sm dark:border-slate-800"
                  >
                    <span className="flex items-center gap-2 font-semibold">
                      <ApiIcon name={api.icon} className="size-5 text-brand-600" />
                      {api.name}
                    </span>
                    <span className="mt-2 text-sm text-slate-600 dark:text-slate-400">{api.description}</span>
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        ))}
    </div>
  );
}
