/**
 * Easy Pay (docs/product.md#easy-pay): for the two privileged accounts, a side panel
 * holding a PayPal hosted button. It is open when the page loads, shows a spinner for 3 s,
 * then renders the button; it can be closed and opened again (each opening starts over).
 * The panel is not modal: the payment table stays usable beside it.
 */
import { Wallet, X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Spinner } from "~/components/spinner";
import { loadPayPalSdk, type PayPalSdkConfig } from "~/lib/paypal-sdk";

/** How long the PayPal-style spinner shows (docs/product.md#timings). */
export const EASY_PAY_SPINNER_MS = 3_000;
const DRAWER_ID = "easy-pay-drawer";

export function EasyPay({ buttonId, sdk }: { buttonId: string; sdk: PayPalSdkConfig }) {
  const [open, setOpen] = useState(true);
  const [openedByUser, setOpenedByUser] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);

  return (
    <>
      <button
        ref={toggleRef}
        type="button"
        aria-expanded={open}
        aria-controls={open ? DRAWER_ID : undefined}
        onClick={() => {
          setOpenedByUser(!open);
          setOpen(!open);
        }}
        className="inline-flex items-center gap-2 rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700"
      >
        <Wallet aria-hidden="true" className="size-4" />
        Easy Pay
      </button>
      {open && (
        <EasyPayDrawer
          buttonId={buttonId}
          sdk={sdk}
          takeFocus={openedByUser}
          onClose={() => {
            setOpen(false);
            toggleRef.current?.focus();
          }}
        />
      )}
    </>
  );
}

type Phase = "waiting" | "ready" | "failed";

function EasyPayDrawer({
  buttonId,
  sdk,
  takeFocus,
  onClose,
}: {
  buttonId: string;
  sdk: PayPalSdkConfig;
  takeFocus: boolean;
  onClose: () => void;
}) {
  const containerRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const [phase, setPhase] = useState<Phase>("waiting");

  // Opened by a click: focus moves in. Open on arrival: the page keeps its focus.
  useEffect(() => {
    if (takeFocus) closeRef.current?.focus();
  }, [takeFocus]);

  useEffect(() => {
    if (!buttonId) return;
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const spinnerShown = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, EASY_PAY_SPINNER_MS);
    });
    // The SDK loads during the spinner's 3 s; the button is drawn once both are done.
    Promise.all([
      loadPayPalSdk(sdk, { components: "hosted-buttons", currency: "USD", disableFunding: "venmo" }),
      spinnerShown,
    ])
      .then(async ([paypal]) => {
        if (cancelled) return;
        const container = containerRef.current;
        if (!paypal.HostedButtons || !container) throw new Error("PayPal's hosted buttons are not available.");
        await paypal.HostedButtons({ hostedButtonId: buttonId }).render(container);
        if (!cancelled) setPhase("ready");
      })
      .catch((error: unknown) => {
        if (cancelled) return;
        // A payment script that fails to load is logged (docs/product.md#site-errors).
        console.error("The Easy Pay button could not be loaded", error);
        setPhase("failed");
      });
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [buttonId, sdk]);

  return (
    <aside
      id={DRAWER_ID}
      role="dialog"
      aria-modal="false"
      aria-labelledby="easy-pay-heading"
      data-testid="easy-pay-drawer"
      onKeyDown={(event) => {
        if (event.key === "Escape") onClose();
      }}
      className="fixed inset-y-0 right-0 z-40 flex w-[min(24rem,100vw)] flex-col border-l border-slate-200 bg-white p-6 text-slate-900 shadow-2xl dark:border-slate-800 dark:bg-slate-900 dark:text-slate-100"
    >
      <div className="flex items-start justify-between gap-4">
        <h2 id="easy-pay-heading" className="text-xl font-bold">
          Easy Pay
        </h2>
        <button
          ref={closeRef}
          type="button"
          onClick={onClose}
          aria-label="Close Easy Pay"
          className="rounded-md p-1 hover:bg-slate-100 dark:hover:bg-slate-800"
        >
          <X aria-hidden="true" className="size-5" />
        </button>
      </div>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
        Pay through PayPal with our hosted payment button.
      </p>
      <div className="mt-6 flex-1 overflow-y-auto">
        {!buttonId ? (
          <p role="status" className="text-sm text-slate-600 dark:text-slate-400">
            Easy Pay is not configured.
          </p>
        ) : (
          <>
            {phase === "waiting" && (
              <div role="status" className="flex flex-col items-center gap-2 py-6" data-testid="easy-pay-loading">
                <Spinner className="size-8" />
                <span className="text-sm text-slate-600 dark:text-slate-400">Loading Easy Pay…</span>
              </div>
            )}
            {phase === "failed" && (
              <p role="alert" className="text-sm text-red-600 dark:text-red-400">
                The Easy Pay button could not be loaded. Please try again later.
              </p>
            )}
            {/* PayPal draws the hosted button here; React never puts children in it. */}
            <div
              ref={containerRef}
              data-testid="easy-pay-button"
              data-state={phase}
              aria-busy={phase === "waiting"}
              className={phase === "failed" ? "hidden" : undefined}
            />
          </>
        )}
      </div>
    </aside>
  );
}
