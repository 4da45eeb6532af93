/**
 * The floating Refer & Earn button and its popup (docs/product.md#refer-and-earn). A signed-in user sees
 * their code; anyone else, or a user whose code cannot be read, sees 'FEATURE COMING SOON'.
 */
import { Check, Copy, Gift, X } from "lucide-react";
import { useRef, useState } from "react";
import { apiRequest } from "~/lib/api-client";
import { useViewer } from "~/root";

type CodeState = { status: "loading" } | { status: "ready"; code: string } | { status: "missing" };

export function ReferEarn() {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const [state, setState] = useState<CodeState>({ status: "loading" });
  const [copied, setCopied] = useState(false);
  const signedIn = useViewer() !== null;

  const open = async () => {
    dialogRef.current?.showModal();
    if (!signedIn) {
      setState({ status: "missing" });
      return;
    }
    setState({ status: "loading" });
    try {
      const answer = await apiRequest<{ referralCode?: string }>("/user/referral-code", { credentials: true });
      setState(answer?.referralCode ? { status: "ready", code: answer.referralCode } : { status: "missing" });
    } catch {
      setState({ status: "missing" });
    }
  };

  const copy = async (code: string) => {
    const link = `${window.location.origin}/signup?ref=${encodeURIComponent(code)}`;
    await navigator.clipboard.writeText(link).catch(() => undefined);
    setCopied(true);
    setTimeout(() => setCopied(false), 1_500);
  };

  return (
    <>
      {/* It floats over the page as it scrolls, so it sits in the gutter --fab-gutter keeps free of
          controls (app.css): a round icon below 1024 px, where a labelled pill would need too
          wide a gutter, and the labelled pill above. */}
      <button
        type="button"
        onClick={open}
        data-floating-action=""
        className="fixed bottom-4 right-2 z-20 flex size-12 items-center justify-center gap-2 rounded-full bg-brand-600 text-sm font-semibold text-white shadow-lg hover:bg-brand-700 lg:bottom-5 lg:right-5 lg:size-auto lg:px-4 lg:py-3"
      >
        <Gift aria-hidden="true" className="size-5" />
        <span className="sr-only lg:not-sr-only">Refer &amp; Earn</span>
      </button>
      <dialog
        ref={dialogRef}
        aria-labelledby="refer-heading"
        onClick={(event) => {
          // A click on the backdrop (the dialog element itself, outside its box) closes it.
          if (event.target === dialogRef.current) dialogRef.current.close();
        }}
        className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-2xl bg-white p-0 text-slate-900 backdrop:bg-slate-950/60 dark:bg-slate-900 dark:text-slate-100"
      >
        <div className="p-6">
          <div className="flex items-start justify-between gap-4">
            <h2 id="refer-heading" className="text-xl font-bold">
              Refer &amp; Earn
            </h2>
            <button
              type="button"
              aria-label="Close"
              onClick={() => dialogRef.current?.close()}
              className="rounded-md p-1 hover:bg-slate-100 dark:hover:bg-slate-800"
            >
              <X aria-hidden="true" className="size-5" />
            </button>
          </div>
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
            Invite a developer: when they sign up with your code they get 200 free API calls and a flat 5% discount on
            every plan.
          </p>
          <div className="mt-6 rounded-xl bg-slate-100 p-4 text-center dark:bg-slate-800" aria-live="polite">
            {state.status === "loading" && <p className="text-sm">Loading your code…</p>}
            {state.status === "missing" && <p className="text-lg font-semibold tracking-wide">FEATURE COMING SOON</p>}
            {state.status === "ready" && (
              <div className="flex items-center justify-center gap-3">
                <code className="text-lg font-semibold">{state.code}</code>
                <button
                  type="button"
                  onClick={() => copy(state.code)}
                  aria-label="Copy referral link"
                  className="rounded-md p-1.5 hover:bg-slate-200 dark:hover:bg-slate-700"
                >
                  {copied ? (
                    <Check aria-hidden="true" className="size-4 text-emerald-600" />
                  ) : (
                    <Copy aria-hidden="true" className="size-4" />
                  )}
                </button>
              </div>
            )}
          </div>
        </div>
      </dialog>
    </>
  );
}
