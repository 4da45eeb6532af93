/** Where a short link that no longer works lands (docs/product.md#short-link-error). */
import { data, Link } from "react-router";
import { pageMeta } from "~/lib/page-meta";
import type { Route } from "./+types/route";

const REASONS: Record<string, { title: string; text: string }> = {
  expired: { title: "This link has expired", text: "Its owner set it to stop working, and that time has passed." },
  missing: { title: "This link does not exist", text: "Check the address for a typo: short links are case-sensitive." },
};

export function loader({ params }: Route.LoaderArgs) {
  const reason = REASONS[params.type];
  // Not a status page a crawler should keep: say 410 for expired links and 404 otherwise.
  return data(
    { reason: reason ?? REASONS.missing!, alias: params.alias },
    { status: params.type === "expired" ? 410 : 404 },
  );
}

export const meta = () =>
  pageMeta("Short link unavailable", "This short link no longer leads anywhere.", { noindex: true });

export default function RedirectError({ loaderData }: Route.ComponentProps) {
  const { reason, alias } = loaderData;
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <h1 className="text-3xl font-semibold">{reason.title}</h1>
      <p className="mt-3 text-slate-600 dark:text-slate-400">{reason.text}</p>
      <p className="mt-2 font-mono text-sm text-slate-500">/s/{alias}</p>
      <Link
        to="/docs/api/urlshortener"
        className="mt-8 rounded-md bg-brand-600 px-5 py-2.5 font-medium text-white hover:bg-brand-700"
      >
        Make your own short links
      </Link>
    </section>
  );
}
