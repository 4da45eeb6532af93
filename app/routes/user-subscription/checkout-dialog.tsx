/**
 * The modal both checkouts open in: a native <dialog> (focus kept inside, Esc closes), shown
 * while `open` is true. While a payment is being confirmed (`busy`), Esc, the backdrop and
 * the Close button do nothing, so the buyer cannot walk away from a half-finished capture.
 */
import { X } from "lucide-react";
import { useEffect, useRef, type ReactNode } from "react";
import { formatPrice } from "~/lib/payment-format";

export interface CheckoutPlan {
  id: "standard" | "premium";
  name: string;
  priceMinor: number;
  currency: "USD" | "INR";
}

export function CheckoutDialog({
  open,
  title,
  titleId,
  busy,
  onClose,
  testId,
  children,
}: {
  open: boolean;
  title: string;
  titleId: string;
  busy: boolean;
  onClose: () => void;
  testId: string;
  children: ReactNode;
}) {
  const dialogRef = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      aria-busy={busy || undefined}
      data-testid={testId}
      onClose={onClose}
      onCancel={(event) => {
        if (busy) event.preventDefault();
      }}
      onClick={(event) => {
        if (!busy && event.target === dialogRef.current) dialogRef.current.close();
      }}
      className="m-auto w-[min(30rem,calc(100vw-2rem))] rounded-2xl bg-white p-6 text-slate-900 backdrop:bg-slate-950/60 dark:bg-slate-900 dark:text-slate-100"
    >
      <div className="flex items-start justify-between gap-4">
        <h2 id={titleId} className="text-xl font-bold">
          {title}
        </h2>
        <button
          type="button"
          disabled={busy}
          onClick={() => dialogRef.current?.close()}
          aria-label="Close"
          className="rounded-md p-1 hover:bg-slate-100 disabled:cursor-not-allowed disabled:opacity-40 dark:hover:bg-slate-800"
        >
          <X aria-hidden="true" className="size-5" />
        </button>
      </div>
      {open && children}
    </dialog>
  );
}

/** Which plan is being bought, and for how much: the server charges the same price. */
export function PlanSummary({ plan }: { plan: CheckoutPlan }) {
  return (
    <p className="mt-2 text-sm text-slate-600 dark:text-slate-400" data-testid="checkout-plan">
      <span className="font-semibold text-slate-900 dark:text-slate-100">{plan.name} plan</span>:{" "}
      <span className="font-semibold text-slate-900 dark:text-slate-100">
        {formatPrice(plan.priceMinor, plan.currency)}
      </span>{" "}
      a month
    </p>
  );
}
