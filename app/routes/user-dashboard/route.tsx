/** The profile and dashboard (docs/product.md#dashboard), with the saved lists (#saved-lists). */
import { Check, Copy } from "lucide-react";
import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { Avatar } from "~/components/avatar";
import { SavedItemsPanel, useSavedList } from "~/components/saved-items";
import { VerifyEmailNotice } from "~/components/verify-email-notice";
import { pageMeta } from "~/lib/page-meta";
import { requireSession, serverContext } from "~/lib/session.server";
import { REFERRAL_BONUS_CALLS, REFERRAL_DISCOUNT_PERCENT } from "~/lib/plans";
import { currentPlanPeriod, PLANS } from "~workers/platform/plans";
import { referralSummary } from "~workers/platform/referrals";
import { dailyCalls, usageSince } from "~workers/platform/usage";
import { meterStanding } from "~workers/gateway/meter-policy";
import { findHostedApi } from "~workers/hosted/registry";
import { UsageChart } from "./usage-chart";
import { displayName } from "~workers/platform/users";
import { hasVerifiedEmail } from "~workers/platform/roles";
import type { Route } from "./+types/route";

export const meta = () =>
  pageMeta("Dashboard", "Your calls this period, your plan's limits, your referrals and saved items.");

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireSession(request, context);
  const { env } = serverContext(context);
  const now = Date.now();
  const period = currentPlanPeriod(user, now);
  const [usage, referral, days] = await Promise.all([
    usageSince(env.DB, user.id, period.start),
    referralSummary(env.DB, user.id),
    dailyCalls(env.DB, user.id, now),
  ]);
  // The month's totals come from the account's Meter, so they match the X-RateLimit-* headers
  // to the call; the rollups (a second behind) give the per-API rows and the chart.
  const standing = await meterStanding(
    env,
    {
      userId: user.id,
      planId: user.planId,
      planExpiresAt: user.planExpiresAt,
      bonusCalls: referral.referredBy ? REFERRAL_BONUS_CALLS : 0,
    },
    now,
  );
  const byApi = usage.byApi.map((row) => ({ ...row, name: findHostedApi(row.apiSlug)?.name ?? row.apiSlug }));
  const plan = PLANS[period.planId];
  return {
    username: displayName(user),
    email: user.email,
    avatarUrl: user.avatarUrl,
    plan: { name: plan.name, monthlyQuota: plan.monthlyQuota, perSecond: plan.perSecond },
    period,
    usage: { ...usage, byApi },
    month: { used: standing.used, limit: standing.monthlyLimit, remaining: standing.monthlyRemaining },
    days,
    referral: { code: user.referralCode, ...referral },
    emailVerified: hasVerifiedEmail(user),
  };
}

const dateFormat = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "long",
  year: "numeric",
  timeZone: "UTC",
});

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { username, email, avatarUrl, plan, period, usage, month, referral, days, emailVerified } = loaderData;
  const [searchParams] = useSearchParams();
  const [copied, setCopied] = useState(false);
  const savedAvatars = useSavedList("avatars", true);
  const savedQrCodes = useSavedList("qrcodes", true);
  // Referral bonus calls still available, on top of the plan's quota (the Meter counts them).
  const bonus = Math.max(0, month.limit - plan.monthlyQuota);
  const percent = month.limit > 0 ? Math.min(100, Math.round((month.used / month.limit) * 100)) : 100;
  const copyCode = async () => {
    await navigator.clipboard.writeText(`${window.location.origin}/signup?ref=${referral.code}`).catch(() => undefined);
    setCopied(true);
    setTimeout(() => setCopied(false), 1_500);
  };

  return (
    <div className="space-y-6">
      <section className="flex items-center gap-4">
        <Avatar url={avatarUrl} name={username} size={64} />
        <div>
          <h1 className="text-2xl font-bold">{username}</h1>
          <p className="text-slate-600 dark:text-slate-400">{email}</p>
        </div>
      </section>
      {emailVerified && searchParams.has("verified") && (
        <p
          role="status"
          className="rounded-md bg-emerald-50 p-3 text-sm text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200"
        >
          Your email address is confirmed. Create an API key to make your first call.
        </p>
      )}
      {!emailVerified && <VerifyEmailNotice reason="create API keys, buy a plan and use a referral code" />}

      <div className="grid gap-6 md:grid-cols-2">
        <section
          aria-labelledby="plan-heading"
          className="rounded-xl border border-slate-200 p-5 dark:border-slate-800"
        >
          <h2 id="plan-heading" className="text-lg font-semibold">
            Plan: {plan.name}
          </h2>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            {plan.monthlyQuota.toLocaleString("en-US")} calls a month, {plan.perSecond} a second.{" "}
            {period.expiresAt
              ? `Renews or ends on ${dateFormat.format(period.expiresAt)}.`
              : "Free forever; upgrade any time."}
          </p>
          <Link
            to="/user/subscription"
            className="mt-3 inline-block text-sm font-medium text-brand-600 hover:underline"
          >
            {period.expiresAt ? "Extend or upgrade" : "See paid plans"}
          </Link>
        </section>

        <section
          aria-labelledby="usage-heading"
          className="rounded-xl border border-slate-200 p-5 dark:border-slate-800"
        >
          <h2 id="usage-heading" className="text-lg font-semibold">
            Calls this month
          </h2>
          <p className="mt-1 text-sm">
            <strong>{month.used.toLocaleString("en-US")}</strong> of {month.limit.toLocaleString("en-US")} used
            {bonus > 0 && <span className="text-slate-500"> (includes {bonus} referral bonus calls)</span>}
          </p>
          <div
            role="progressbar"
            aria-label="Calls used this month"
            aria-valuemin={0}
            aria-valuemax={month.limit}
            aria-valuenow={month.used}
            className="mt-3 h-3 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800"
          >
            <div className="h-full rounded-full bg-brand-600" style={{ width: `${percent}%` }} />
          </div>
          <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">
            {month.remaining.toLocaleString("en-US")} left; resets on {dateFormat.format(period.resetsAt)}.
          </p>
        </section>
      </div>

      <section aria-labelledby="daily-heading" className="rounded-xl border border-slate-200 p-5 dark:border-slate-800">
        <h2 id="daily-heading" className="text-lg font-semibold">
          Last 30 days
        </h2>
        <UsageChart days={days} />
        {usage.byApi.length > 0 ? (
          <>
            <table className="mt-4 w-full text-left text-sm">
              <caption className="sr-only">Calls this period per API</caption>
              <thead>
                <tr className="border-b border-slate-200 dark:border-slate-700">
                  <th scope="col" className="py-1.5 pr-4">
                    API
                  </th>
                  <th scope="col" className="py-1.5 pr-4">
                    Calls this period
                  </th>
                  <th scope="col" className="py-1.5">
                    Errors
                  </th>
                </tr>
              </thead>
              <tbody>
                {usage.byApi.map((row) => (
                  <tr key={row.apiSlug} className="border-b border-slate-100 dark:border-slate-800">
                    <th scope="row" className="py-1.5 pr-4 font-medium">
                      {row.name}
                    </th>
                    <td className="py-1.5 pr-4">{row.calls.toLocaleString("en-US")}</td>
                    <td className="py-1.5">{row.errors.toLocaleString("en-US")}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {/* Rollups are per UTC day and a paid period starts mid-day: say so, rather than let
              the rows and the Meter's count above disagree without a word. */}
            {period.expiresAt && (
              <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">
                Counted by UTC day from {usage.since}, so the rows include any calls made earlier that day, before this
                period began.
              </p>
            )}
          </>
        ) : (
          <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">
            No calls yet this period.{" "}
            {/* Underlined as the docs' links in running text are: colour alone told it apart at 1.2:1. */}
            <Link to="/docs" className="text-brand-600 underline">
              Pick an API
            </Link>{" "}
            and make your first one.
          </p>
        )}
      </section>

      <section
        aria-labelledby="referral-heading"
        className="rounded-xl border border-slate-200 p-5 dark:border-slate-800"
      >
        <h2 id="referral-heading" className="text-lg font-semibold">
          Refer &amp; Earn
        </h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          Share your code: whoever signs up with it gets {REFERRAL_BONUS_CALLS} free API calls and a flat{" "}
          {REFERRAL_DISCOUNT_PERCENT}% discount on every plan.{" "}
          {referral.referredCount > 0 && `${referral.referredCount} signed up with yours so far.`}
        </p>
        <div className="mt-3 flex items-center gap-3">
          <code className="rounded-md bg-slate-100 px-3 py-1.5 text-lg font-semibold tracking-wider dark:bg-slate-800">
            {referral.code}
          </code>
          <button
            type="button"
            onClick={copyCode}
            className="flex items-center gap-1.5 rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
          >
            {copied ? (
              <Check aria-hidden="true" className="size-4 text-emerald-600" />
            ) : (
              <Copy aria-hidden="true" className="size-4" />
            )}
            {copied ? "Copied!" : "Copy link"}
            {/* Said in words after the visible ones: an aria-label unlike them failed label-in-name. */}
            <span className="sr-only"> to sign up with your referral code</span>
          </button>
        </div>
      </section>

      <SavedItemsPanel state={savedAvatars} />
      <SavedItemsPanel state={savedQrCodes} />
    </div>
  );
}
