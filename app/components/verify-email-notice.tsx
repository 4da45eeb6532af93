/**
 * Shown to a signed-in account whose address is not proven yet: says what waits on it and
 * offers a new link (posted to /user/verify-email, which throttles per account).
 */
import { useFetcher } from "react-router";
import { SECONDARY_BUTTON } from "./form-field";

export function VerifyEmailNotice({ reason }: { reason: string }) {
  const fetcher = useFetcher<{ message: string; ok: boolean }>();
  const sending = fetcher.state !== "idle";
  return (
    <section
      aria-labelledby="verify-email-heading"
      className="rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
    >
      <h2 id="verify-email-heading" className="font-semibold">
        Confirm your email address
      </h2>
      <p className="mt-1">
        To {reason}, open the link we mailed you when you signed up. It proves the address is yours and works for 24
        hours.
      </p>
      <fetcher.Form method="post" action="/user/verify-email" className="mt-3 flex flex-wrap items-center gap-3">
        <button type="submit" disabled={sending} className={SECONDARY_BUTTON}>
          {sending ? "Sending…" : "Send a new link"}
        </button>
        {fetcher.data && (
          <span role={fetcher.data.ok ? "status" : "alert"} className={fetcher.data.ok ? "" : "text-red-700 dark:text-red-300"}>
            {fetcher.data.message}
          </span>
        )}
      </fetcher.Form>
    </section>
  );
}
