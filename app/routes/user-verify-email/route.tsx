/**
 * `/user/verify-email/:token`: the link mailed at sign-up. Opening it proves the address and
 * signs the opener in (the link could only have been read in that inbox). Without a token the
 * route takes the "send a new link" form of `VerifyEmailNotice`, throttled per account.
 */
import { data, Link, redirect } from "react-router";
import { PRIMARY_BUTTON } from "~/components/form-field";
import { pageMeta } from "~/lib/page-meta";
import { requireSession, serverContext } from "~/lib/session.server";
import { accountServices } from "~workers/platform/account-services";
import { resendVerificationLink, verifyEmail } from "~workers/platform/email-verification";
import { startSession } from "~workers/platform/sign-in";
import type { Route } from "./+types/route";

export const meta = () =>
  pageMeta("Confirm your email", "Confirm the email address of your Portico account.", { noindex: true });

export async function loader({ params, request, context }: Route.LoaderArgs) {
  if (!params.token) throw redirect("/user/dashboard");
  const { env, config } = serverContext(context);
  const result = await verifyEmail(env.DB, params.token);
  if (result.ok) {
    const started = await startSession(env.DB, config.SESSION_SECRET, request, result.user);
    throw redirect("/user/dashboard?verified=1", { headers: { "Set-Cookie": started.setCookie } });
  }
  return { outcome: result.code };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireSession(request, context);
  const { env, ctx, config } = serverContext(context);
  const services = accountServices(config, env, request, (promise) => ctx.waitUntil(promise));
  const result = await resendVerificationLink(env.DB, services.mail, user, services.origin);
  if (result.ok) return { ok: true, message: `A new link is on its way to ${user.email}.` };
  if (result.code === "already-verified") return { ok: true, message: "Your address is confirmed already." };
  const minutes = Math.ceil(result.retryAfterSeconds / 60);
  return data(
    {
      ok: false,
      message: `You asked for several links already. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
    },
    { status: 429, headers: { "Retry-After": String(result.retryAfterSeconds) } },
  );
}

export default function VerifyEmail({ loaderData }: Route.ComponentProps) {
  const confirmed = loaderData.outcome === "already-verified";
  return (
    <div className="mx-auto max-w-md px-4 py-16 text-center">
      <h1 className="text-2xl font-bold">{confirmed ? "Your address is confirmed" : "This link no longer works"}</h1>
      <p className="mt-3 text-slate-600 dark:text-slate-400">
        {confirmed
          ? "This link was opened before, and the address is confirmed. Log in to continue."
          : "Confirmation links work once, for 24 hours. Log in and ask for a new one on your dashboard."}
      </p>
      <Link to="/user/authenticate?mode=login" className={`${PRIMARY_BUTTON} mt-6 inline-block`}>
        Log in
      </Link>
    </div>
  );
}
