/**
 * Buying with Cashfree (spec §4 "Buying (India)"): Cashfree needs the buyer's mobile number,
 * so Buy Now first asks for it; then our server creates the payment session (pricing it
 * itself) and Cashfree's checkout opens in this window. Cashfree sends the buyer back to the
 * payment status page.
 */
import { LoaderCircle } from "lucide-react";
import { useState, type FormEvent } from "react";
import { toast } from "sonner";
import { FormField, PRIMARY_BUTTON, SECONDARY_BUTTON } from "~/components/form-field";
import { apiRequest } from "~/lib/api-client";
import { openCashfreeCheckout, type CashfreeSdkConfig } from "~/lib/cashfree-checkout";
import { problemFieldError } from "~/lib/payment-errors";
import { PAYMENT_ERROR_MESSAGE } from "~/lib/payment-format";
import { normaliseIndianMobile, phoneError } from "~/lib/payment-phone";
import { CheckoutDialog, PlanSummary, type CheckoutPlan } from "./checkout-dialog";

interface CashfreeSessionAnswer {
  response: { payment_session_id: string; order_id: string };
  payment_id: string;
}

export function CashfreeCheckoutDialog({
  plan,
  sdk,
  onClose,
}: {
  plan: CheckoutPlan | null;
  sdk: CashfreeSdkConfig;
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
          <PhoneForm key={plan.id} plan={plan} sdk={sdk} working={working} setWorking={setWorking} onFailed={close} />
        </>
      )}
    </CheckoutDialog>
  );
}

function PhoneForm({
  plan,
  sdk,
  working,
  setWorking,
  onFailed,
}: {
  plan: CheckoutPlan;
  sdk: CashfreeSdkConfig;
  working: boolean;
  setWorking: (working: boolean) => void;
  onFailed: () => void;
}) {
  const [phone, setPhone] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [redirecting, setRedirecting] = useState(false);

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
      const answer = await apiRequest<CashfreeSessionAnswer>("/payments/cashfree/generate-session", {
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
      // Checkout replaces this page; the button stays disabled until it does.
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
