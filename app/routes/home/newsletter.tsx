/** The newsletter promo and subscribe box (docs/product.md#newsletter): the server decides what it accepts. */
import { useState, type FormEvent } from "react";
import { apiRequest, ApiError } from "~/lib/api-client";

export const NEWSLETTER_TEXTS = {
  success: "Subscription successful! Thank you for subscribing to our newsletter",
  refused: "Please try again with a different email id",
  failed: "something went wrong please try again",
} as const;

type Outcome = keyof typeof NEWSLETTER_TEXTS;

export function Newsletter() {
  const [email, setEmail] = useState("");
  const [sending, setSending] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSending(true);
    setOutcome(null);
    try {
      const answer = await apiRequest<{ is_exist: boolean }>("/subscribe/newsletter", { options: { email } });
      if (answer?.is_exist) {
        setOutcome("success");
        setEmail("");
      } else {
        setOutcome("refused");
      }
    } catch (error) {
      // The server answered and said no (invalid address, too many tries): that is a refusal.
      setOutcome(error instanceof ApiError && error.status < 500 ? "refused" : "failed");
    } finally {
      setSending(false);
    }
  };

  return (
    <section
      aria-labelledby="newsletter-heading"
      className="rounded-2xl bg-gradient-to-br from-brand-600 to-violet-600 p-6 text-white"
    >
      <h2 id="newsletter-heading" className="text-2xl font-bold tracking-tight">
        New APIs, first
      </h2>
      <p className="mt-2 text-sm text-indigo-100">
        One short email when we ship a new API or raise a limit. No spam, unsubscribe any time.
      </p>
      <form noValidate onSubmit={submit} className="mt-6 flex flex-col gap-2 sm:flex-row">
        <label htmlFor="newsletter-email" className="sr-only">
          Email address
        </label>
        <input
          id="newsletter-email"
          type="email"
          autoComplete="email"
          placeholder="you@example.com"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          className="w-full rounded-md border-0 px-3 py-2 text-sm text-slate-900 placeholder:text-slate-400"
        />
        <button
          type="submit"
          disabled={sending}
          className="shrink-0 rounded-md bg-slate-900 px-5 py-2 text-sm font-medium text-white hover:bg-slate-800 disabled:opacity-60"
        >
          {sending ? "Subscribing…" : "Subscribe"}
        </button>
      </form>
      <p role="status" className="mt-3 min-h-5 text-sm font-medium">
        {outcome && NEWSLETTER_TEXTS[outcome]}
      </p>
      {outcome === "success" && (
        // Double opt-in: the subscription counts once the mailed link is opened.
        <p className="text-sm text-indigo-100">Open the link we just mailed you to confirm it.</p>
      )}
    </section>
  );
}
