/**
 * Buying with PayPal (docs/product.md#buying-paypal): the modal
 * 'Secure Payment with PayPal' holds PayPal's buttons, with a spinner until they render or
 * fail. The order is created on our server (which prices it) and captured there on approval;
 * a declined card sends the buyer back into PayPal to choose another way to pay, and a capture
 * PayPal has not completed yet (e.g. pending) sends the buyer to the payment status page.
 */
import type { PayPalButtonsComponent } from "@paypal/paypal-js";
import { useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { toast } from "~/lib/toast";
import { Spinner } from "~/components/spinner";
import { apiRequest } from "~/lib/api-client";
import { problemExtension, problemReason } from "~/lib/payment-errors";
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
  sessionQuery,
  onClose,
}: {
  plan: CheckoutPlan | null;
  sdk: PayPalSdkConfig;
  /** Appended to the generate-session path: `?country=XX` in development, else "". */
  sessionQuery: string;
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
          <PayPalButtonsPanel
            key={plan.id}
            plan={plan}
            sdk={sdk}
            sessionQuery={sessionQuery}
            onCapturingChange={setCapturing}
            onFinished={close}
          />
        </>
      )}
    </CheckoutDialog>
  );
}

type Phase = "loading" | "ready" | "failed";

function PayPalButtonsPanel({
  plan,
  sdk,
  sessionQuery,
  onCapturingChange,
  onFinished,
}: {
  plan: CheckoutPlan;
  sdk: PayPalSdkConfig;
  sessionQuery: string;
  onCapturingChange: (capturing: boolean) => void;
  onFinished: () => void;
}) {
  const containerRef = useRef<HTMLDivElement>(null);
  const [phase, setPhase] = useState<Phase>("loading");
  const [capturing, setCapturing] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const navigate = useNavigate();
  // PayPal keeps the callbacks it was given at render: read the parent's (and the plan's
  // name and the session query) through a ref, so they never rebuild the buttons.
  const latest = useRef({ onCapturingChange, onFinished, navigate, planName: plan.name, sessionQuery });
  latest.current = { onCapturingChange, onFinished, navigate, planName: plan.name, sessionQuery };
  // The buttons depend on these values only, not on the identity of the loader's `sdk` object:
  // a loader revalidation hands over an equal but new object and must not rebuild them mid-checkout.
  const planId = plan.id;
  const { clientId, environment, sdkBaseUrl } = sdk;

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

    const config: PayPalSdkConfig = { clientId, environment, ...(sdkBaseUrl ? { sdkBaseUrl } : {}) };
    loadPayPalSdk(config, { currency: "USD", intent: "capture" })
      .then(async (paypal) => {
        if (cancelled) return;
        const container = containerRef.current;
        if (!paypal.Buttons || !container) throw new Error("PayPal's buttons are not available.");
        buttons = paypal.Buttons({
          style: { layout: "vertical", shape: "rect", label: "pay" },
          createOrder: async () => {
            setNotice(null);
            // Only the plan goes to the server: it sets the amount.
            const path = `/payments/paypal/generate-session${latest.current.sessionQuery}`;
            const answer = await apiRequest<GenerateSessionAnswer>(path, {
              method: "POST",
              options: { payment_type: planId },
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
              toast.success(`Payment received: your ${latest.current.planName} plan is active.`);
              latest.current.onFinished();
              void latest.current.navigate("/user/dashboard");
            } catch (error) {
              const reason = problemReason(error);
              if (reason === "declined") {
                setNotice("Your card was declined. Please choose another card or way to pay.");
                return actions.restart();
              }
              // PayPal has not completed the payment yet (e.g. a pending capture): the status
              // page follows it until it settles.
              const paymentId = reason === "not-paid" ? problemExtension(error, "paymentId") : undefined;
              if (paymentId) {
                toast.info("PayPal is still confirming your payment.");
                latest.current.onFinished();
                void latest.current.navigate(`/status/payment/${encodeURIComponent(paymentId)}`);
                return;
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
        // A payment script that fails to load is logged; the modal says so too (docs/product.md#site-errors).
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
  }, [planId, clientId, environment, sdkBaseUrl]);

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
