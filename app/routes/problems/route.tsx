/**
 * `/problems` and `/problems/:type`: every problem `type` the API answers is a URL, and this is
 * the page it opens: what the problem means, its status and what to do, generated from the one
 * closed table in workers/http/problem.ts, so a new type gets its page by being added there. A
 * type not in the table is a 404.
 */
import { data, Link } from "react-router";
import { InlineMarkup } from "~/components/inline-markup";
import { ProblemTable } from "~/components/problem-table";
import { titled } from "~/lib/page-meta";
import { isProblemType, PROBLEM_BASE_URL, PROBLEM_TYPES } from "~workers/http/problem";
import type { Route } from "./+types/route";

export function loader({ params }: Route.LoaderArgs) {
  const all = Object.entries(PROBLEM_TYPES).map(([type, info]) => ({ type, url: PROBLEM_BASE_URL + type, ...info }));
  if (params.type === undefined) return { problem: null, all };
  if (!isProblemType(params.type)) throw data(null, { status: 404 });
  const type = params.type;
  return { problem: { type, url: PROBLEM_BASE_URL + type, ...PROBLEM_TYPES[type] }, all };
}

export const meta = ({ loaderData }: Route.MetaArgs) => {
  const problem = loaderData?.problem;
  if (!problem) {
    return [
      { title: titled("API problem types") },
      { name: "description", content: "Every error the Portico API answers: what it means and what to do." },
    ];
  }
  return [
    { title: titled(`${problem.title} (${problem.status})`) },
    { name: "description", content: problem.description.replaceAll("`", "") },
  ];
};

export default function Problems({ loaderData }: Route.ComponentProps) {
  const { problem, all } = loaderData;
  return (
    <article className="mx-auto max-w-3xl px-4 py-12">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-500 dark:text-slate-400">
        <Link to="/docs" className="hover:underline">
          Docs
        </Link>{" "}
        /{" "}
        {problem ? (
          <Link to="/problems" className="hover:underline">
            Problems
          </Link>
        ) : (
          "Problems"
        )}
      </nav>
      {problem ? (
        <>
          <h1 className="mt-3 text-3xl font-bold tracking-tight sm:text-4xl">{problem.title}</h1>
          <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="font-semibold">Status</dt>
            <dd>{problem.status}</dd>
            <dt className="font-semibold">Type</dt>
            <dd>
              <code className="break-all">{problem.url}</code>
            </dd>
          </dl>
          <section aria-labelledby="meaning" className="mt-8">
            <h2 id="meaning" className="text-xl font-semibold">
              What it means
            </h2>
            <p className="mt-2 text-slate-700 dark:text-slate-300">
              <InlineMarkup text={problem.description} />
            </p>
          </section>
          <section aria-labelledby="action" className="mt-8">
            <h2 id="action" className="text-xl font-semibold">
              What to do
            </h2>
            <p className="mt-2 text-slate-700 dark:text-slate-300">
              <InlineMarkup text={problem.action} />
            </p>
          </section>
          <ProblemShape />
        </>
      ) : (
        <>
          <h1 className="mt-3 text-3xl font-bold tracking-tight sm:text-4xl">API problem types</h1>
          <p className="mt-4 text-slate-700 dark:text-slate-300">
            Every error the API answers names one of these types. Open one for what it means and what to do.
          </p>
          <ProblemTable
            className="mt-6"
            textHeading="Title"
            rows={all.map((entry) => ({ status: entry.status, types: [entry.type], text: entry.title }))}
          />
          <ProblemShape />
        </>
      )}
    </article>
  );
}

/** The members every problem carries, so a page opened from one `type` explains the rest of the body. */
function ProblemShape() {
  return (
    <section aria-labelledby="shape" className="mt-8">
      <h2 id="shape" className="text-xl font-semibold">
        The answer
      </h2>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
        Errors are <code>application/problem+json</code> (RFC 9457): <code>type</code> (this page's address),{" "}
        <code>title</code>, <code>status</code>, <code>detail</code> (what happened to this request) and a{" "}
        <code>requestId</code> to quote to support. <code>message</code> is the text older clients show a person,
        usually <code>detail</code> again; <code>errors</code>, when present, names each field that broke a rule.
      </p>
    </section>
  );
}
