/**
 * Payment status (docs/product.md#payment-status, public): where a buyer lands after
 * paying, e.g. back from Cashfree's checkout. It shows what the server knows of the payment
 * and, until the outcome is final, asks again every 3 s; each ask makes the server re-check
 * the provider, so a payment confirmed late still turns into "paid" here.
 */
import { CircleCheck, CircleX, SearchX, Undo2 } from "lucide-react";
import { useEffect, useState, type ReactNode } from "react";
import { Link } from "react-router";
import { Spinner } from "~/components/spinner";
import { ApiError, apiRequest } from "~/lib/api-client";
import { pageMeta } from "~/lib/page-meta";
import { formatPrice } from "~/lib/payment-format";
import type { Route } from "./+types/route";

export const meta = () => pageMeta("Payment status", "Where your Portico payment stands.", { noindex: true });

export const POLL_INTERVAL_MS = 3_000;
/** Ten minutes of asking; after that the page says to reload rather than poll forever. */
const MAX_CHECKS = 200;

type PaymentState = "created" | "pending" | "paid" | "failed" | "refunded";

interface PaymentStatus {
  id: string;
  status: PaymentState;
  planId: string;
  planName: string;
  amount: number;
  currency: string;
  method: string;
  planExpiresAt: number | null;
  final: boolean;
}

export default function PaymentStatusPage({ params }: Route.ComponentProps) {
  // A fresh view (and fresh polling) for each payment id.
  return <PaymentStatusView key={params.paymentId} paymentId={params.paymentId} />;
}

function PaymentStatusView({ paymentId }: { paymentId: string }) {
  const [payment, setPayment] = useState<PaymentStatus | null>(null);
  const [notFound, setNotFound] = useState(false);
  const [checkError, setCheckError] = useState<string | null>(null);
  const [gaveUp, setGaveUp] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let checks = 0;
    const check = async () => {
      checks += 1;
      try {
        const answer = await apiRequest<{ payment: PaymentStatus }>(
          `/payments/${encodeURIComponent(paymentId)}/status`,
          { signal: controller.signal },
        );
        if (controller.signal.aborted) return;
        if (answer) {
          setPayment(answer.payment);
          setCheckError(null);
          if (answer.payment.final) return;
        }
      } catch (error) {
        if (controller.signal.aborted) return;
        if (error instanceof ApiError && error.status === 404) {
          setNotFound(true);
          return;
        }
        // 'Request failed with status code {status}' (docs/product.md#site-errors); keep trying, it may pass.
        console.error("Payment status check failed", error);
        setCheckError(error instanceof ApiError ? error.message : "The server could not be reached.");
      }
      if (checks >= MAX_CHECKS) {
        setGaveUp(true);
        return;
      }
      timer = setTimeout(() => void check(), POLL_INTERVAL_MS);
    };
    void check();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [paymentId]);

  const raw = notFound ? "not-found" : (payment?.status ?? "checking");

  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-20 text-center">
      <div aria-live="polite" className="flex w-full flex-col items-center">
        {notFound ? (
          <NotFoundView paymentId={paymentId} />
        ) : !payment ? (
          <div role="status" className="flex flex-col items-center gap-4">
            <Spinner />
            <h1 className="text-2xl font-semibold">Checking your payment…</h1>
          </div>
        ) : (
          <PaymentView payment={payment} gaveUp={gaveUp} />
        )}
      </div>
      {checkError && !notFound && (
        <p role="alert" className="mt-6 text-sm text-red-600 dark:text-red-400">
          {checkError}. {gaveUp ? "Reload the page to check again." : "Trying again…"}
        </p>
      )}
      <p className="mt-10 text-xs text-slate-500 dark:text-slate-400">
        Payment <span className="font-mono">{paymentId}</span> · status{" "}
        <span data-testid="payment-status" data-status={raw} className="font-mono">
          {raw}
        </span>
      </p>
    </section>
  );
}

const expiryFormat = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric" });

function PaymentView({ payment, gaveUp }: { payment: PaymentStatus; gaveUp: boolean }) {
  const amount = formatPrice(payment.amount, payment.currency);
  switch (payment.status) {
    case "paid":
      return (
        <Outcome
          icon={<CircleCheck aria-hidden="true" className="size-14 text-emerald-600" />}
          title="Payment received"
        >
          <p>
            Your <strong>{payment.planName}</strong> plan is active
            {payment.planExpiresAt ? (
              <>
                {" "}
                until <strong data-testid="plan-expires-at">{expiryFormat.format(payment.planExpiresAt)}</strong>
              </>
            ) : null}
            .
          </p>
          <p className="mt-1 text-sm">
            {amount} paid through {payment.method}.
          </p>
          <Actions>
            <PrimaryLink to="/user/dashboard">Go to the dashboard</PrimaryLink>
            <SecondaryLink to="/user/transactions">See payment history</SecondaryLink>
          </Actions>
        </Outcome>
      );
    case "failed":
      return (
        <Outcome
          icon={<CircleX aria-hidden="true" className="size-14 text-red-600" />}
          title="The payment did not go through"
        >
          <p>
            {payment.method} did not complete the payment of {amount} for the {payment.planName} plan, so your plan has
            not changed. You can try again, with the same or another way to pay.
          </p>
          <Actions>
            <PrimaryLink to="/user/subscription">Back to pricing</PrimaryLink>
          </Actions>
        </Outcome>
      );
    case "refunded":
      return (
        <Outcome
          icon={<Undo2 aria-hidden="true" className="size-14 text-slate-500" />}
          title="This payment was refunded"
        >
          <p>
            The {amount} paid through {payment.method} for the {payment.planName} plan has been refunded, and the plan
            it bought is no longer active.
          </p>
          <Actions>
            <PrimaryLink to="/user/transactions">See payment history</PrimaryLink>
            <SecondaryLink to="/user/subscription">See the plans</SecondaryLink>
          </Actions>
        </Outcome>
      );
    default:
      // created or pending: the provider has not confirmed yet.
      return (
        <Outcome icon={<Spinner className="size-14" />} title="Waiting for confirmation">
          <p role="status">Waiting for confirmation from {payment.method}…</p>
          <p className="mt-1 text-sm">
            {payment.planName} plan, {amount}.{" "}
            {gaveUp
              ? `This is taking longer than usual. Your plan is activated as soon as ${payment.method} confirms; reload this page to check again.`
              : "This page updates by itself; you can keep it open."}
          </p>
          {gaveUp && (
            <Actions>
              <SecondaryLink to="/user/transactions">See payment history</SecondaryLink>
            </Actions>
          )}
        </Outcome>
      );
  }
}

function NotFoundView({ paymentId }: { paymentId: string }) {
  return (
    <Outcome icon={<SearchX aria-hidden="true" className="size-14 text-slate-500" />} title="Payment not found">
      <p>
        There is no payment with the id <span className="font-mono">{paymentId}</span>. Check the link you followed, or
        find your payments in your payment history.
      </p>
      <Actions>
        <PrimaryLink to="/user/transactions">See payment history</PrimaryLink>
        <SecondaryLink to="/user/subscription">See the plans</SecondaryLink>
      </Actions>
    </Outcome>
  );
}

function Outcome({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <div className="flex flex-col items-center">
      {icon}
      <h1 className="mt-6 text-3xl font-semibold">{title}</h1>
      <div className="mt-3 text-slate-600 dark:text-slate-400">{children}</div>
    </div>
  );
}

function Actions({ children }: { children: ReactNode }) {
  return <div className="mt-8 flex flex-wrap justify-center gap-3">{children}</div>;
}

function PrimaryLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} className="rounded-md bg-brand-600 px-5 py-2.5 font-medium text-white hover:bg-brand-700">
      {children}
    </Link>
  );
}

function SecondaryLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link
      to={to}
      className="rounded-md border border-slate-300 px-5 py-2.5 font-medium hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
    >
      {children}
    </Link>
  );
}
