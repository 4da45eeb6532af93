/**
 * Buying with Cashfree (docs/product.md#buying-cashfree): Cashfree needs the buyer's mobile number,
 * so Buy Now first asks for it; then our server creates the payment session (pricing it
 * itself) and Cashfree's checkout opens in this window. Cashfree sends the buyer back to the
 * payment status page. A buyer who comes back with the Back button (the page restored from
 * the back/forward cache), or a checkout that never leaves the page, gets the form back.
 */
import { LoaderCircle } from "lucide-react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { toast } from "~/lib/toast";
import { FormField, PRIMARY_BUTTON, SECONDARY_BUTTON } from "~/components/form-field";
import { apiRequest } from "~/lib/api-client";
import { openCashfreeCheckout, type CashfreeSdkConfig } from "~/lib/cashfree-checkout";
import { problemFieldError } from "~/lib/payment-errors";
import { PAYMENT_ERROR_MESSAGE } from "~/lib/payment-format";
import { normaliseIndianMobile, phoneError } from "~/lib/payment-phone";
import { CheckoutDialog, PlanSummary, type CheckoutPlan } from "./checkout-dialog";

/** How long checkout may take to leave this page before the form is usable again. */
const NAVIGATION_GRACE_MS = 10_000;

interface CashfreeSessionAnswer {
  response: { payment_session_id: string; order_id: string };
  payment_id: string;
}

export function CashfreeCheckoutDialog({
  plan,
  sdk,
  sessionQuery,
  onClose,
}: {
  plan: CheckoutPlan | null;
  sdk: CashfreeSdkConfig;
  /** Appended to the generate-session path: `?country=XX` in development, else "". */
  sessionQuery: string;
  onClose: () => void;
}) {
  const [working, setWorking] = useState(false);
  const close = () => {
    setWorking(false);
    onClose();
  };
  return (
    <CheckoutDialog
      open={plan !== null}
      title="Secure Payment with Cashfree"
      titleId="cashfree-checkout-heading"
      testId="cashfree-checkout"
      busy={working}
      onClose={close}
    >
      {plan && (
        <>
          <PlanSummary plan={plan} />
          <PhoneForm
            key={plan.id}
            plan={plan}
            sdk={sdk}
            sessionQuery={sessionQuery}
            working={working}
            setWorking={setWorking}
            onFailed={close}
          />
        </>
      )}
    </CheckoutDialog>
  );
}

function PhoneForm({
  plan,
  sdk,
  sessionQuery,
  working,
  setWorking,
  onFailed,
}: {
  plan: CheckoutPlan;
  sdk: CashfreeSdkConfig;
  sessionQuery: string;
  working: boolean;
  setWorking: (working: boolean) => void;
  onFailed: () => void;
}) {
  const [phone, setPhone] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [redirecting, setRedirecting] = useState(false);
  const graceTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  // Checkout leaves the page; when the buyer comes back with Back, the browser may restore
  // this page as it was (bfcache), busy modal included. Make the form usable again then.
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (!event.persisted) return;
      clearTimeout(graceTimer.current);
      setRedirecting(false);
      setWorking(false);
    };
    window.addEventListener("pageshow", onPageShow);
    return () => {
      window.removeEventListener("pageshow", onPageShow);
      clearTimeout(graceTimer.current);
    };
  }, [setWorking]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem = phoneError(phone);
    setError(problem);
    if (problem) {
      document.getElementById("field-customer_phone")?.focus();
      return;
    }
    setWorking(true);
    try {
      const answer = await apiRequest<CashfreeSessionAnswer>(`/payments/cashfree/generate-session${sessionQuery}`, {
        method: "POST",
        // Only the plan and the phone: the server adds who is buying and what it costs.
        options: { payment_type: plan.id, customer_details: { customer_phone: normaliseIndianMobile(phone) } },
        credentials: true,
        loader: true,
      });
      if (!answer) {
        setWorking(false); // 401: the app is already on its way home.
        return;
      }
      setRedirecting(true);
      await openCashfreeCheckout(sdk, answer.response.payment_session_id);
      // Checkout replaces this page; the button stays disabled until it does, or until the
      // grace period shows it did not.
      clearTimeout(graceTimer.current);
      graceTimer.current = setTimeout(() => {
        setRedirecting(false);
        setWorking(false);
      }, NAVIGATION_GRACE_MS);
    } catch (caught) {
      setRedirecting(false);
      const fieldMessage = problemFieldError(caught, "customer_phone");
      if (fieldMessage) {
        setError(fieldMessage);
        setWorking(false);
        document.getElementById("field-customer_phone")?.focus();
        return;
      }
      console.error("Cashfree payment failed", caught);
      toast.error(PAYMENT_ERROR_MESSAGE);
      onFailed();
    }
  };

  return (
    <form noValidate onSubmit={submit} className="mt-5 space-y-4" aria-busy={working || undefined}>
      <FormField
        name="customer_phone"
        label="Mobile number"
        type="tel"
        inputMode="tel"
        autoComplete="tel-national"
        placeholder="98765 43210"
        maxLength={16}
        required
        value={phone}
        disabled={working}
        error={error ?? undefined}
        hint="A 10-digit Indian mobile number. Cashfree uses it for this payment only."
        onChange={(event) => {
          setPhone(event.target.value);
          if (error) setError(null);
        }}
      />
      <div className="flex justify-end gap-3">
        <button type="button" onClick={onFailed} disabled={working} className={SECONDARY_BUTTON}>
          Cancel
        </button>
        <button type="submit" disabled={working} className={`${PRIMARY_BUTTON} inline-flex items-center gap-2`}>
          {working && <LoaderCircle aria-hidden="true" className="size-4 animate-spin" />}
          {redirecting ? "Opening Cashfree…" : working ? "Starting payment…" : "Continue to payment"}
        </button>
      </div>
    </form>
  );
}
