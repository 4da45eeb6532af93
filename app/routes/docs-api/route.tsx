import { data, Link, redirect } from "react-router";
import { ApiIcon } from "~/components/api-icon";
import { SITE } from "~/lib/site";
import { lookupCatalogEntry } from "~workers/hosted/catalog";
import type { Route } from "./+types/route";

export function loader({ params }: Route.LoaderArgs) {
  const lookup = lookupCatalogEntry(params.slug);
  // The specification's spellings (urlshortner, polyine) stay valid and lead to the canonical page.
  if (lookup.kind === "alias") throw redirect(lookup.canonicalPath, 301);
  if (lookup.kind === "missing") throw data(null, { status: 404 });
  return { api: lookup.entry };
}

export default function ApiDocs({ loaderData }: Route.ComponentProps) {
  const { api } = loaderData;
  const url = `${SITE.origin}${api.apiPath}`;
  return (
    <article className="mx-auto max-w-4xl px-4 py-12">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-500 dark:text-slate-400">
        <Link to="/docs" className="hover:underline">
          Docs
        </Link>{" "}
        / {api.name}
      </nav>
      <h1 className="mt-3 flex items-center gap-3 text-3xl font-bold tracking-tight sm:text-4xl">
        <ApiIcon name={api.icon} className="size-8 text-brand-600" />
        {api.name} API
      </h1>
      <p className="mt-4 text-lg text-slate-700 dark:text-slate-300">{api.description}</p>

      <section aria-labelledby="endpoint" className="mt-10">
        <h2 id="endpoint" className="text-xl font-semibold">
          Endpoint and authentication
        </h2>
        <pre className="mt-3 overflow-x-auto rounded-lg bg-slate-900 p-4 text-sm text-slate-100">
          <code>{`${url}\nx-api-key: <your key>`}</code>
        </pre>
        <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">
          Send your key in the <code>x-api-key</code> header (or as <code>Authorization: Bearer &lt;key&gt;</code>).
          Keys are made on the{" "}
          <Link to="/user/apikey" className="text-brand-600 hover:underline">
            API Key page
          </Link>{" "}
          once you have signed up.
        </p>
      </section>

      <section aria-labelledby="plans" className="mt-10">
        <h2 id="plans" className="text-xl font-semibold">
          Plans that include it
        </h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          Plan group: <strong>{api.groupLabel}</strong>
        </p>
        <div className="mt-3 overflow-x-auto">
          <table className="w-full min-w-[28rem] text-left text-sm">
            <thead>
              <tr className="border-b border-slate-200 dark:border-slate-700">
                <th scope="col" className="py-2 pr-4 font-semibold">
                  Plan
                </th>
                <th scope="col" className="py-2 pr-4 font-semibold">
                  Calls a month
                </th>
                <th scope="col" className="py-2 pr-4 font-semibold">
                  Calls a second
                </th>
              </tr>
            </thead>
            <tbody>
              {api.plans.map((plan) => (
                <tr key={plan.id} className="border-b border-slate-100 dark:border-slate-800">
                  <th scope="row" className="py-2 pr-4 font-medium">
                    {plan.name}
                  </th>
                  <td className="py-2 pr-4">
                    {plan.monthlyQuota.toLocaleString("en-US")}
                    {plan.note && <span className="text-slate-500 dark:text-slate-400"> ({plan.note})</span>}
                  </td>
                  <td className="py-2 pr-4">{plan.perSecond}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <Link
          to="/user/subscription"
          className="mt-4 inline-block rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700"
        >
          See pricing
        </Link>
      </section>
    </article>
  );
}
