import type { ReactNode } from "react";
import { data, Link, redirect } from "react-router";
import { ApiIcon } from "~/components/api-icon";
import { InlineMarkup } from "~/components/inline-markup";
import { ProblemTable } from "~/components/problem-table";
import { codeSamples } from "~/lib/code-samples";
import { useStoredApiKey } from "~/lib/stored-api-key";
import { API_KEY_PLACEHOLDER, SITE } from "~/lib/site";
import { lookupCatalogEntry } from "~workers/hosted/catalog";
import { COMMON_ERRORS, operationDocs } from "~workers/hosted/docs";
import type { Route } from "./+types/route";
import { CodeSamples } from "./code-samples";

export async function loader({ params }: Route.LoaderArgs) {
  const lookup = lookupCatalogEntry(params.slug);
  // The specification's spellings (urlshortner, polyine) stay valid and lead to the canonical page.
  if (lookup.kind === "alias") throw redirect(lookup.canonicalPath, 301);
  if (lookup.kind === "missing") throw data(null, { status: 404 });
  const operations = await operationDocs(lookup.entry.slug, SITE.origin);
  // The live demo's input fields are not shown here: the page's data (serialised into its HTML)
  // carries only what the page draws.
  return {
    api: lookup.entry,
    operations: operations.map(({ exampleInput: _input, inputSource: _source, ...shown }) => shown),
    errors: COMMON_ERRORS,
  };
}

const METHOD_COLOURS: Record<string, string> = {
  GET: "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300",
  POST: "bg-sky-100 text-sky-800 dark:bg-sky-950 dark:text-sky-300",
  DELETE: "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-300",
};

/**
 * A table of named fields (a call's parameters, its answer's fields): the name heads each row,
 * the last column holds notes.
 */
function FieldTable({
  caption,
  headers,
  rows,
}: {
  caption: string;
  headers: string[];
  rows: { name: string; cells: ReactNode[] }[];
}) {
  return (
    // Wider than a phone: the scrolling box takes focus so a keyboard can scroll it too.
    <div className="mt-4 overflow-x-auto" role="region" aria-label={caption} tabIndex={0}>
      <table className="w-full min-w-[36rem] text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b border-slate-200 dark:border-slate-700">
            {headers.map((header) => (
              <th key={header} scope="col" className="py-2 pr-3">
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.name} className="border-b border-slate-100 align-top dark:border-slate-800">
              <th scope="row" className="py-2 pr-3 font-mono font-medium">
                {row.name}
              </th>
              {row.cells.map((cell, index) => (
                <td
                  key={headers[index + 1]}
                  className={index === row.cells.length - 1 ? "py-2 text-slate-600 dark:text-slate-400" : "py-2 pr-3"}
                >
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export default function ApiDocs({ loaderData }: Route.ComponentProps) {
  const { api, operations, errors } = loaderData;
  const [apiKey, setApiKey] = useStoredApiKey();
  const url = `${SITE.origin}${api.apiPath}`;
  return (
    <article className="mx-auto max-w-4xl px-4 py-12">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-500 dark:text-slate-400">
        <Link to="/docs" className="underline">
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
        <pre tabIndex={0} className="mt-3 overflow-x-auto rounded-lg bg-slate-900 p-4 text-sm text-slate-100">
          <code>{`${url}\nx-api-key: <your key>`}</code>
        </pre>
        <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">
          Send your key in the <code>x-api-key</code> header (or as <code>Authorization: Bearer &lt;key&gt;</code>).
          Keys are made on the{" "}
          <Link to="/user/apikey" className="text-brand-600 underline">
            API Key page
          </Link>{" "}
          once you have signed up.
        </p>
      </section>

      <section aria-labelledby="calls" className="mt-10">
        <h2 id="calls" className="text-xl font-semibold">
          Calls
        </h2>
        {operations.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
            This API's engine is not served yet: calls answer <code>503 engine-unavailable</code> until it is.
          </p>
        ) : (
          <>
            <div className="mt-3 flex flex-wrap items-end gap-3">
              <div className="w-full max-w-md">
                <label htmlFor="docs-api-key" className="block text-sm font-medium">
                  Your API key (fills the samples; kept in this browser only)
                </label>
                <input
                  id="docs-api-key"
                  type="password"
                  autoComplete="off"
                  value={apiKey}
                  onChange={(event) => setApiKey(event.target.value.trim())}
                  placeholder="pk_live_…"
                  className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2 font-mono text-sm dark:border-slate-700 dark:bg-slate-900"
                />
              </div>
              <Link
                to={`/${api.slug}/live-demo`}
                className="rounded-md border border-brand-600 px-4 py-2 text-sm font-medium text-brand-700 hover:bg-brand-50 dark:text-brand-500 dark:hover:bg-slate-900"
              >
                Try it in the live demo
              </Link>
            </div>
            {operations.map((operation) => (
              <article
                key={operation.id}
                aria-labelledby={`op-${operation.id}`}
                className="mt-8 border-t border-slate-200 pt-6 dark:border-slate-800"
              >
                <h3 id={`op-${operation.id}`} className="flex flex-wrap items-center gap-2 text-lg font-semibold">
                  <span className={`rounded px-2 py-0.5 font-mono text-xs ${METHOD_COLOURS[operation.method] ?? ""}`}>
                    {operation.method}
                  </span>
                  <code className="text-base">{operation.path}</code>
                </h3>
                <p className="mt-2 font-medium">{operation.summary}</p>
                {operation.description && (
                  <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
                    <InlineMarkup text={operation.description} />
                  </p>
                )}
                {operation.parameters.length > 0 && (
                  <FieldTable
                    caption={`Parameters of ${operation.summary}`}
                    headers={["Parameter", "In", "Type", "Required", "Notes"]}
                    rows={operation.parameters.map((parameter) => ({
                      name: parameter.name,
                      cells: [
                        parameter.location,
                        <span key="type" className="font-mono text-xs">
                          {parameter.type}
                        </span>,
                        parameter.required ? "yes" : "no",
                        <InlineMarkup key="notes" text={parameter.description} />,
                      ],
                    }))}
                  />
                )}
                <h4 className="mt-4 text-sm font-semibold">Example request</h4>
                <CodeSamples
                  samples={codeSamples(operation.samples)}
                  placeholder={API_KEY_PLACEHOLDER}
                  apiKey={apiKey}
                />
                <h4 className="mt-4 text-sm font-semibold">Response ({operation.successStatus})</h4>
                {operation.output.kind === "json" ? (
                  <>
                    {operation.output.fields.length > 0 && (
                      <FieldTable
                        caption={`Response fields of ${operation.summary}`}
                        headers={["Field", "Type", "Notes"]}
                        rows={operation.output.fields.map((field) => ({
                          name: field.name,
                          cells: [
                            <span key="type" className="font-mono text-xs">
                              {field.type}
                            </span>,
                            <InlineMarkup key="notes" text={field.description} />,
                          ],
                        }))}
                      />
                    )}
                    <pre
                      tabIndex={0}
                      className="mt-2 max-h-96 overflow-auto rounded-lg bg-slate-100 p-4 text-xs dark:bg-slate-900"
                    >
                      <code>{operation.output.example}</code>
                    </pre>
                  </>
                ) : (
                  <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
                    {operation.output.description} ({operation.output.mimeTypes.join(", ")}). Add <code>?as=json</code>{" "}
                    to get <code>{"{ data, mimeType, size }"}</code> with the bytes in base64 instead.
                  </p>
                )}
                {operation.errors.length > 0 && (
                  <>
                    <h4 className="mt-4 text-sm font-semibold">Errors of this call</h4>
                    <p className="mt-1 text-xs text-slate-500">Besides the errors every call can answer (below).</p>
                    <ul className="mt-1 space-y-1 text-sm">
                      {operation.errors.map((error) => (
                        <li key={error.type}>
                          <Link to={`/problems/${error.type}`} className="underline">
                            <span className="font-mono">{error.status}</span>{" "}
                            <code className="text-xs">{error.type}</code>
                          </Link>
                          :{" "}
                          <span className="text-slate-600 dark:text-slate-400">
                            <InlineMarkup text={error.when} />
                          </span>
                        </li>
                      ))}
                    </ul>
                  </>
                )}
                {operation.legacyPaths.map((legacy) => (
                  <div key={legacy.path} className="mt-4">
                    <h4 className="text-sm font-semibold">
                      Older path: <code>{`${legacy.method} ${legacy.path}`}</code>
                    </h4>
                    <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
                      Clients written for the earlier product keep working by changing only the host: this path serves
                      the same call and takes the key in <code>X-Avatar-Key</code> too; problems carry the{" "}
                      <code>message</code> those clients read.{" "}
                      {legacy.input ? (
                        <InlineMarkup text={`Its input: ${legacy.input.summary}`} />
                      ) : (
                        "Its input is the same."
                      )}{" "}
                      New code should use the path above.
                    </p>
                    {legacy.input && (
                      <pre
                        tabIndex={0}
                        className="mt-2 max-h-64 overflow-auto rounded-lg bg-slate-100 p-4 text-xs dark:bg-slate-900"
                      >
                        <code>{legacy.input.example}</code>
                      </pre>
                    )}
                  </div>
                ))}
              </article>
            ))}
          </>
        )}
      </section>

      <section aria-labelledby="errors" className="mt-10">
        <h2 id="errors" className="text-xl font-semibold">
          Errors
        </h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          Every error is <code>application/problem+json</code> (RFC 9457) with <code>type</code>, <code>title</code>,{" "}
          <code>status</code>, <code>detail</code> and a <code>requestId</code> to quote to support. Each type is a link
          to what it means and what to do;{" "}
          <Link to="/problems" className="text-brand-600 underline">
            all problem types
          </Link>{" "}
          are listed together.
        </p>
        <ProblemTable
          className="mt-3"
          textHeading="When"
          rows={errors.map((error) => ({ status: error.status, types: error.types, text: error.when }))}
        />
      </section>

      <section aria-labelledby="plans" className="mt-10">
        <h2 id="plans" className="text-xl font-semibold">
          Plans that include it
        </h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          Plan group: <strong>{api.groupLabel}</strong>
        </p>
        <div className="mt-3 overflow-x-auto" role="region" aria-label="Limits by plan" tabIndex={0}>
          <table className="w-full min-w-[28rem] text-left text-sm">
            <caption className="sr-only">Limits by plan</caption>
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
