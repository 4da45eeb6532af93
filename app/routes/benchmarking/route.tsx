/** Admin: per-API calls, errors and latency over the last 24 hours and 7 days, from the hourly rollups. */
import { pageMeta } from "~/lib/page-meta";
import { requireAdmin, serverContext } from "~/lib/session.server";
import { LATENCY_BUCKETS_MS } from "~workers/gateway/usage-recorder";
import { percentileFromBuckets } from "~workers/platform/admin";
import { apiUsageSinceHour, HOUR_MS, utcHourStart, type ApiHourlyUsage } from "~workers/platform/usage";
import type { Route } from "./+types/route";

export const meta = () =>
  pageMeta("Benchmarking", "Calls, errors and latency of each hosted API over the last day and week.");

interface ApiBenchmark {
  apiSlug: string;
  calls: number;
  errors: number;
  /** Errors as a share of answered calls (0 to 1); null when nothing was answered. */
  errorRate: number | null;
  /** Upper edges of the histogram buckets that hold the 50th and 95th percentile calls. */
  p50Ms: number | null;
  p95Ms: number | null;
  meanLatencyMs: number;
  maxLatencyMs: number;
}

function summarizeApiUsage(usage: ApiHourlyUsage): ApiBenchmark {
  const answered = usage.calls + usage.errors;
  return {
    apiSlug: usage.apiSlug,
    calls: usage.calls,
    errors: usage.errors,
    errorRate: answered ? usage.errors / answered : null,
    p50Ms: percentileFromBuckets(usage.latencyBuckets, 0.5),
    p95Ms: percentileFromBuckets(usage.latencyBuckets, 0.95),
    meanLatencyMs: answered ? Math.round(usage.totalLatencyMs / answered) : 0,
    maxLatencyMs: usage.maxLatencyMs,
  };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  // Checked here as well as in the admin layout: a single-fetch request can run this loader alone.
  await requireAdmin(request, context);
  const db = serverContext(context).env.DB;
  const now = Date.now();
  // Rollups are per UTC hour: a window starts with the hour that held its first moment, so it
  // covers all of the period and at most one hour more.
  const [day, week] = await Promise.all([
    apiUsageSinceHour(db, utcHourStart(now - 24 * HOUR_MS)),
    apiUsageSinceHour(db, utcHourStart(now - 7 * 24 * HOUR_MS)),
  ]);
  return {
    day: day.map(summarizeApiUsage),
    week: week.map(summarizeApiUsage),
    // The top bucket has no upper edge: a percentile there is only known to be past the one
    // below. Sent from here, so the page's code does not import the gateway's bucket table.
    slowestEdgeMs: LATENCY_BUCKETS_MS.at(-2) ?? 0,
  };
}

const formatNumber = (value: number) => value.toLocaleString("en-US");
const formatMs = (ms: number) => `${formatNumber(ms)} ms`;
const formatBucketEdge = (ms: number | null, slowestEdgeMs: number) =>
  ms === null ? "—" : ms > slowestEdgeMs ? `> ${formatMs(slowestEdgeMs)}` : `≤ ${formatMs(ms)}`;

function LatencyTable({ title, rows, slowestEdgeMs }: { title: string; rows: ApiBenchmark[]; slowestEdgeMs: number }) {
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
                <td className="py-2 pr-4">{formatNumber(row.calls)}</td>
                <td className="py-2 pr-4">{formatNumber(row.errors)}</td>
                <td className="py-2 pr-4">{row.errorRate === null ? "—" : `${(row.errorRate * 100).toFixed(1)}%`}</td>
                <td className="py-2 pr-4">{formatBucketEdge(row.p50Ms, slowestEdgeMs)}</td>
                <td className="py-2 pr-4">{formatBucketEdge(row.p95Ms, slowestEdgeMs)}</td>
                <td className="py-2 pr-4">{formatMs(row.meanLatencyMs)}</td>
                <td className="py-2 pr-4">{formatMs(row.maxLatencyMs)}</td>
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
        Figures come from hourly rollups (UTC): each period starts at the top of the hour it began in, so it can include
        up to an hour more. Percentiles come from latency histograms, so they show the bucket the percentile call fell
        in (5, 10, 25, 50, 100, 250, 500 ms, 1, 2.5, 5, 10, 30 s).
      </p>
      <LatencyTable title="Last 24 hours" rows={loaderData.day} slowestEdgeMs={loaderData.slowestEdgeMs} />
      <LatencyTable title="Last 7 days" rows={loaderData.week} slowestEdgeMs={loaderData.slowestEdgeMs} />
    </div>
  );
}
