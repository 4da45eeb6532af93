/**
 * Payment history (docs/product.md#payment-history): fetched a page at a time from fetch-transactions, each
 * loaded page kept so going back costs nothing; Previous off on page 1, Next on the last.
 * The privileged accounts also get the Easy Pay drawer.
 */
import { useEffect, useRef, useState } from "react";
import { Spinner } from "~/components/spinner";
import { apiRequest } from "~/lib/api-client";
import { pageMeta } from "~/lib/page-meta";
import { payPalSdkConfig } from "~/lib/payment-sdk.server";
import { requireSession, serverContext } from "~/lib/session.server";
import type { Route } from "./+types/route";
import { EasyPay } from "./easy-pay-drawer";
import { isPrivileged } from "~workers/platform/roles";
import type { PaymentRecord } from "~workers/platform/payments";

export const meta = () =>
  pageMeta("Payment history", "The payments made on your Portico account and how each one ended.");

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireSession(request, context);
  const { config } = serverContext(context);
  // The privileged accounts (docs/product.md#privileged) see the plan-expiry column and the Easy Pay drawer.
  const privileged = isPrivileged(config, user);
  return {
    showPlanExpiry: privileged,
    easyPay: privileged ? { buttonId: config.PAYPAL_EASY_PAY_BUTTON_ID, sdk: payPalSdkConfig(config) } : null,
  };
}

interface TransactionsAnswer {
  success: boolean;
  data: { payments: PaymentRecord[]; totalPages: number };
}

const dateFormat = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});

export function formatAmount(minor: number, currency: string): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency }).format(minor / 100);
}

export default function Transactions({ loaderData }: Route.ComponentProps) {
  const { showPlanExpiry, easyPay } = loaderData;
  const [page, setPage] = useState(1);
  const [pages, setPages] = useState<Record<number, PaymentRecord[]>>({});
  const [totalPages, setTotalPages] = useState(1);
  const [loading, setLoading] = useState(false);
  const cache = useRef(pages);
  cache.current = pages;

  useEffect(() => {
    if (cache.current[page]) return;
    const controller = new AbortController();
    setLoading(true);
    apiRequest<TransactionsAnswer>("/users/fetch-transactions", {
      options: { page, limit: 10 },
      credentials: true,
      signal: controller.signal,
    })
      .then((answer) => {
        if (!answer?.success) return;
        setPages((current) => ({ ...current, [page]: answer.data.payments }));
        setTotalPages(Math.max(1, answer.data.totalPages));
      })
      .catch((error: unknown) => console.error("Could not load payments", error))
      .finally(() => setLoading(false));
    return () => controller.abort();
  }, [page]);

  const payments = pages[page];
  const columns = ["ID", "Date", "Amount", "Method", "Status", ...(showPlanExpiry ? ["Plan Expiry Date"] : [])];

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">Payment History</h1>
        {easyPay && <EasyPay buttonId={easyPay.buttonId} sdk={easyPay.sdk} />}
      </div>
      <div className="overflow-x-auto rounded-xl border border-slate-200 dark:border-slate-800">
        <table className="w-full min-w-[40rem] text-left text-sm">
          <thead className="bg-slate-50 dark:bg-slate-900">
            <tr>
              {columns.map((column) => (
                <th key={column} scope="col" className="px-4 py-3 font-semibold">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {!payments && (
              <tr>
                <td colSpan={columns.length} className="px-4 py-8 text-center">
                  {loading ? (
                    <Spinner className="mx-auto size-6" />
                  ) : (
                    "Payments could not be loaded. Reload the page to try again."
                  )}
                </td>
              </tr>
            )}
            {payments?.length === 0 && (
              <tr>
                <td colSpan={columns.length} className="px-4 py-8 text-center text-slate-600 dark:text-slate-400">
                  No payments found.
                </td>
              </tr>
            )}
            {payments?.map((payment) => (
              <tr key={payment.id} className="border-t border-slate-100 dark:border-slate-800">
                <td className="px-4 py-3 font-mono text-xs">{payment.id}</td>
                <td className="px-4 py-3">{dateFormat.format(payment.date)}</td>
                <td className="px-4 py-3">{formatAmount(payment.amount, payment.currency)}</td>
                <td className="px-4 py-3">{payment.method}</td>
                <td className="px-4 py-3 capitalize">{payment.status}</td>
                {showPlanExpiry && (
                  <td className="px-4 py-3">
                    {payment.planExpiresAt ? dateFormat.format(payment.planExpiresAt) : "—"}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="flex items-center justify-between">
        <button
          type="button"
          disabled={page <= 1}
          onClick={() => setPage((value) => value - 1)}
          className="rounded-md border border-slate-300 px-4 py-2 text-sm disabled:opacity-40 dark:border-slate-700"
        >
          Previous
        </button>
        <span className="text-sm" aria-live="polite">
          Page {page} of {totalPages}
        </span>
        <button
          type="button"
          disabled={page >= totalPages}
          onClick={() => setPage((value) => value + 1)}
          className="rounded-md border border-slate-300 px-4 py-2 text-sm disabled:opacity-40 dark:border-slate-700"
        >
          Next
        </button>
      </div>
    </div>
  );
}
