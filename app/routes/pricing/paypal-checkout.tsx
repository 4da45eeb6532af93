/**
 * Buying with PayPal (spec §2 "Pricing page", §4 "Buying (international)"): the modal
 * 'Secure Payment with PayPal' holds PayPal's buttons, with a spinner until they render or
 * fail. The order is created on our server (which prices it) and captured there on approval;
 * a declined card sends the buyer back into PayPal to choose another way to pay.
 */
import type { PayPalButtonsComponent } from "@paypal/paypal-js";
import { useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { toast } from "sonner";
import { Spinner } from "~/components/spinner";
import { apiRequest } from "~/lib/api-client";
import { problemReason } from "~/lib/payment-errors";
import { PAYMENT_ERROR_MESSAGE } from "~/lib/payment-format";
import { loadPayPalSdk, type PayPalSdkConfig } from "~/lib/paypal-sdk";
import { CheckoutDialog, PlanSummary, type CheckoutPlan } from "./checkout-dialog";

interface GenerateSessionAnswer {
  response: { id: string; approve_url?: string | null };
  order_id: string;
  payment_id: string;
}

interface CaptureAnswer {
  success: number;
  plan: string;
  planExpiresAt: number | null;
  alreadyPaid: boolean;
}

export function PayPalCheckoutDialog({
  plan,
  sdk,
  onClose,
}: {
  plan: CheckoutPlan | null;
  sdk: PayPalSdkConfig;
  onClose: () => void;
}) {
  const [capturing, setCapturing] = useState(false);
  const close = () => {
    setCapturing(false);
    onClose();
  };
  return (
    <CheckoutDialog
      open={plan !== null}
      title="Secure Payment with PayPal"
      titleId="paypal-checkout-heading"
      testId="paypal-checkout"
      busy={capturing}
      onClose={close}
    >
      {plan && (
        <>
          <PlanSummary plan={plan} />
          <PayPalButtonsPanel key={plan.id} plan={plan} sdk={sdk} onCapturingChange={setCapturing} onFinished={close} />
        </>
      )}
    </CheckoutDialog>
  );
}

type Phase = "loading" | "ready" | "failed";

function PayPalButtonsPanel({
  plan,
  sdk,
  onCapturingChange,
  onFinished,
}: {
  plan: CheckoutPlan;
  sdk: PayPalSdkConfig;
  onCapturingChange: (capturing: boolean) => void;
  onFinished: () => void;
}) {
  const containerRef = useRef<HTMLDivElement>(null);
  const [phase, setPhase] = useState<Phase>("loading");
  const [capturing, setCapturing] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const navigate = useNavigate();
  // PayPal keeps the callbacks it was given at render: read the parent's through a ref.
  const latest = useRef({ onCapturingChange, onFinished, navigate });
  latest.current = { onCapturingChange, onFinished, navigate };

  useEffect(() => {
    let cancelled = false;
    let buttons: PayPalButtonsComponent | undefined;
    const setBusy = (busy: boolean) => {
      if (!cancelled) setCapturing(busy);
      latest.current.onCapturingChange(busy);
    };
    const fail = (error: unknown) => {
      console.error("PayPal payment failed", error);
      toast.error(PAYMENT_ERROR_MESSAGE);
      // Closing lets the toast be seen: the open modal sits above the rest of the page.
      latest.current.onFinished();
    };

    loadPayPalSdk(sdk, { currency: "USD", intent: "capture" })
      .then(async (paypal) => {
        if (cancelled) return;
        const container = containerRef.current;
        if (!paypal.Buttons || !container) throw new Error("PayPal's buttons are not available.");
        buttons = paypal.Buttons({
          style: { layout: "vertical", shape: "rect", label: "pay" },
          createOrder: async () => {
            setNotice(null);
            // Only the plan goes to the server: it sets the amount.
            const answer = await apiRequest<GenerateSessionAnswer>("/payments/paypal/generate-session", {
              method: "POST",
              options: { payment_type: plan.id },
              credentials: true,
              loader: true,
            });
            if (!answer) throw new Error("Signed out while starting the payment.");
            return answer.response.id;
          },
          onApprove: async (data, actions) => {
            setBusy(true);
            try {
              const answer = await apiRequest<CaptureAnswer>("/payments/paypal/capture", {
                method: "POST",
                options: { orderID: data.orderID },
                credentials: true,
                loader: true,
              });
              if (!answer) return; // 401: the app is already on its way home.
              toast.success(`Payment received: your ${plan.name} plan is active.`);
              latest.current.onFinished();
              void latest.current.navigate("/user/dashboard");
            } catch (error) {
              if (problemReason(error) === "declined") {
                setNotice("Your card was declined. Please choose another card or way to pay.");
                return actions.restart();
              }
              fail(error);
            } finally {
              setBusy(false);
            }
          },
          onCancel: () => setNotice("You cancelled the payment; nothing was charged. You can try again."),
          onError: (error) => fail(error),
        });
        await buttons.render(container);
        if (!cancelled) setPhase("ready");
      })
      .catch((error: unknown) => {
        if (cancelled) return;
        // Spec §8: a payment script that fails to load is logged; the modal says so too.
        console.error("PayPal could not be loaded", error);
        setPhase("failed");
      });

    return () => {
      cancelled = true;
      // The real SDK answers close() with a promise; a failure there has nothing left to undo.
      const rendered = buttons;
      if (rendered)
        Promise.resolve()
          .then(() => rendered.close())
          .catch(() => {});
    };
  }, [plan, sdk]);

  return (
    <div className="relative mt-5">
      {phase === "loading" && (
        <div role="status" className="flex flex-col items-center gap-2 py-6" data-testid="paypal-loading">
          <Spinner className="size-8" />
          <span className="text-sm text-slate-600 dark:text-slate-400">Loading PayPal…</span>
        </div>
      )}
      {phase === "failed" && (
        <p role="alert" className="py-6 text-center text-sm text-red-600 dark:text-red-400">
          PayPal could not be loaded. Please check your connection and try again later.
        </p>
      )}
      {notice && (
        <p
          role="status"
          className="mb-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200"
        >
          {notice}
        </p>
      )}
      {/* PayPal renders its buttons here; React never puts children in it. */}
      <div
        ref={containerRef}
        data-testid="paypal-buttons"
        data-state={phase}
        aria-busy={phase === "loading"}
        className={phase === "failed" ? "hidden" : "min-h-12"}
      />
      {capturing && (
        <div
          role="status"
          className="absolute inset-0 flex flex-col items-center justify-center gap-2 rounded-md bg-white/90 dark:bg-slate-900/90"
        >
          <Spinner className="size-8" />
          <span className="text-sm font-medium">Confirming your payment…</span>
        </div>
      )}
    </div>
  );
}
