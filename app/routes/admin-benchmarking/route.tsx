/** Admin: per-API calls, errors and latency over the last day and week, from the usage rollups. */
import { titled } from "~/lib/page-meta";
import { serverContext } from "~/lib/session.server";
import { apiLatencySince, type ApiLatencyRow } from "~workers/platform/admin";
import { utcDay } from "~workers/platform/usage";
import type { Route } from "./+types/route";

export const meta = () => [{ title: titled("Benchmarking") }];

const DAY_MS = 24 * 60 * 60 * 1000;

export async function loader({ context }: Route.LoaderArgs) {
  const db = serverContext(context).env.DB;
  const now = Date.now();
  // Rollups are per UTC day: "last 24 hours" reads today and yesterday.
  const [day, week] = await Promise.all([
    apiLatencySince(db, utcDay(now - DAY_MS)),
    apiLatencySince(db, utcDay(now - 7 * DAY_MS)),
  ]);
  return { day, week };
}

function LatencyTable({ title, rows }: { title: string; rows: ApiLatencyRow[] }) {
  return (
    <section aria-label={title}>
      <h2 className="text-lg font-semibold">{title}</h2>
      {rows.length === 0 ? (
        <p className="mt-2 text-sm text-slate-500">No calls in this period.</p>
      ) : (
        <table className="mt-2 w-full text-left text-sm">
          <thead>
            <tr className="border-b border-slate-200 dark:border-slate-700">
              {["API", "Calls", "Errors", "Error rate", "p50", "p95", "Mean", "Max"].map((column) => (
                <th key={column} scope="col" className="py-2 pr-4">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.apiSlug} className="border-b border-slate-100 dark:border-slate-800">
                <td className="py-2 pr-4">{row.apiSlug}</td>
                <td className="py-2 pr-4">{row.calls}</td>
                <td className="py-2 pr-4">{row.errors}</td>
                <td className="py-2 pr-4">
                  {row.calls + row.errors ? `${((row.errors / (row.calls + row.errors)) * 100).toFixed(1)}%` : "—"}
                </td>
                <td className="py-2 pr-4">{row.p50Ms === null ? "—" : `≤ ${row.p50Ms} ms`}</td>
                <td className="py-2 pr-4">{row.p95Ms === null ? "—" : `≤ ${row.p95Ms} ms`}</td>
                <td className="py-2 pr-4">{row.meanLatencyMs} ms</td>
                <td className="py-2 pr-4">{row.maxLatencyMs} ms</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export default function Benchmarking({ loaderData }: Route.ComponentProps) {
  return (
    <div className="space-y-8">
      <h1 className="text-2xl font-bold">Benchmarking</h1>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Percentiles come from per-day latency histograms, so they show the bucket the percentile call fell in (5, 10,
        25, 50, 100, 250, 500 ms, 1, 2.5, 5, 10, 30 s).
      </p>
      <LatencyTable title="Last 24 hours" rows={loaderData.day} />
      <LatencyTable title="Last 7 days" rows={loaderData.week} />
    </div>
  );
}
