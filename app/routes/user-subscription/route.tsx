/**
 * Pricing (docs/product.md#pricing): three plans in the visitor's currency (rupees
 * in India, dollars elsewhere), the referral discount computed on the server, the APIs each
 * plan includes, and the contact boxes. Buy Now opens the checkout of the currency's provider
 * (PayPal for dollars, Cashfree for rupees); their SDKs load only once a checkout opens.
 */
import { Check } from "lucide-react";
import { useRef, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { VerifyEmailNotice } from "~/components/verify-email-notice";
import { formatPrice } from "~/lib/payment-format";
import { cashfreeSdkConfig, payPalSdkConfig } from "~/lib/payment-sdk.server";
import { titled } from "~/lib/page-meta";
import { getSession, serverContext } from "~/lib/session.server";
import { FREE_PLAN_FREEMIUM_CAP, REFERRAL_DISCOUNT_PERCENT } from "~/lib/plans";
import { SITE } from "~/lib/site";
import { hasVerifiedEmail } from "~workers/platform/roles";
import { HOSTED_APIS, type HostedApi } from "~workers/hosted/registry";
import { cachedCountryOf, currencyFor } from "~workers/platform/country";
import { PLAN_IDS, PLANS, priceFor, type PlanId } from "~workers/platform/plans";
import { referralSummary } from "~workers/platform/referrals";
import type { Route } from "./+types/route";
import { CashfreeCheckoutDialog } from "./cashfree-checkout";
import type { CheckoutPlan } from "./checkout-dialog";
import { PayPalCheckoutDialog } from "./paypal-checkout";

export const meta = () => [
  { title: titled("Pricing") },
  {
    name: "description",
    content: "Free, Standard and Premium plans: calls a month, calls a second, and the APIs each includes.",
  },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { env, config } = serverContext(context);
  const [session, country] = await Promise.all([
    getSession(request, context),
    cachedCountryOf(request, config, env.CACHE),
  ]);
  const referred = session ? (await referralSummary(env.DB, session.user.id)).referredBy !== null : false;
  const currency = currencyFor(country);
  const plans = PLAN_IDS.map((id) => {
    const plan = PLANS[id];
    const list = id === "free" ? 0 : currency === "INR" ? plan.price.inrPaise : plan.price.usdCents;
    return {
      id,
      name: plan.name,
      monthlyQuota: plan.monthlyQuota,
      perSecond: plan.perSecond,
      notes: plan.notes,
      listMinor: list,
      priceMinor: id === "free" ? 0 : priceFor(id, currency, referred),
    };
  });
  const names = (group: HostedApi["group"]) =>
    HOSTED_APIS.filter((api: HostedApi) => api.group === group).map((api: HostedApi) => api.name);
  return {
    country,
    currency,
    referred,
    // Plans are sold to accounts whose address is proven; the server checks it again.
    canBuy: Boolean(session?.user.email) && session !== null && hasVerifiedEmail(session.user),
    mustVerify: session !== null && !hasVerifiedEmail(session.user),
    plans,
    groups: { free: names("free"), freemium: names("freemium"), premium: names("premium") },
    // Public SDK settings only, and only the provider this visitor pays through.
    paypal: currency === "USD" ? payPalSdkConfig(config) : null,
    cashfree: currency === "INR" ? cashfreeSdkConfig(config) : null,
  };
}

function IncludedApis({
  planId,
  groups,
}: {
  planId: PlanId;
  groups: { free: string[]; freemium: string[]; premium: string[] };
}) {
  const sections = [
    { title: "Free APIs", names: groups.free },
    {
      title: planId === "free" ? `Freemium APIs (up to ${FREE_PLAN_FREEMIUM_CAP} calls a month)` : "Freemium APIs",
      names: groups.freemium,
    },
    ...(planId === "free" ? [] : [{ title: "Premium APIs", names: groups.premium }]),
  ];
  return (
    <div className="space-y-4">
      {sections.map((section) => (
        <section key={section.title}>
          <h3 className="text-sm font-semibold">{section.title}</h3>
          <ul className="mt-1 grid grid-cols-1 gap-x-4 text-sm sm:grid-cols-2">
            {section.names.map((name) => (
              <li key={name} className="flex items-center gap-1.5">
                <Check aria-hidden="true" className="size-3.5 text-emerald-600" />
                {name}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

export default function Pricing({ loaderData }: Route.ComponentProps) {
  const { country, currency, referred, canBuy, mustVerify, plans, groups, paypal, cashfree } = loaderData;
  const cannotBuyReason = mustVerify ? "Please confirm your email first" : "Please login first";
  const [searchParams] = useSearchParams();
  // The server checks the provider against the buyer's country. In development that country
  // is the page's `?country=`, so the payment session requests carry it along (the server
  // honours it only in development); otherwise their paths stay as they are.
  const sessionQuery = searchParams.has("country") ? `?${new URLSearchParams({ country })}` : "";
  const dialogRef = useRef<HTMLDialogElement>(null);
  const [shownPlan, setShownPlan] = useState<(typeof plans)[number] | null>(null);
  const [buying, setBuying] = useState<CheckoutPlan | null>(null);

  const showApis = (plan: (typeof plans)[number]) => {
    setShownPlan(plan);
    dialogRef.current?.showModal();
  };

  const buy = (plan: (typeof plans)[number]) => {
    if (plan.id === "free") return;
    // The price shown in the checkout is the loader's; the server charges its own, the same.
    setBuying({ id: plan.id, name: plan.name, priceMinor: plan.priceMinor, currency });
  };

  return (
    <div className="mx-auto max-w-6xl px-4 py-12">
      <h1 className="text-center text-3xl font-bold tracking-tight sm:text-4xl">Simple monthly plans</h1>
      <p className="mx-auto mt-3 max-w-2xl text-center text-slate-600 dark:text-slate-400">
        One key for every API. Prices in{" "}
        {currency === "INR" ? "Indian rupees, paid through Cashfree" : "US dollars, paid through PayPal"}; transaction
        charges included.
        {referred && ` Your referral discount of ${REFERRAL_DISCOUNT_PERCENT}% is applied.`}
      </p>
      <div className="mt-10 grid gap-6 md:grid-cols-3">
        {plans.map((plan) => {
          const popular = plan.id === "standard";
          return (
            <article
              key={plan.id}
              aria-labelledby={`plan-${plan.id}`}
              className={`relative flex flex-col rounded-2xl border p-6 ${popular ? "border-brand-600 shadow-lg" : "border-slate-200 dark:border-slate-800"}`}
            >
              {popular && (
                <p className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-brand-600 px-3 py-0.5 text-xs font-semibold text-white">
                  Most Popular
                </p>
              )}
              <h2 id={`plan-${plan.id}`} className="text-xl font-semibold">
                {plan.name}
              </h2>
              <p className="mt-3">
                <span className="text-4xl font-bold" data-testid={`price-${plan.id}`}>
                  {formatPrice(plan.priceMinor, currency)}
                </span>
                <span className="text-slate-500"> / month</span>
                {plan.priceMinor !== plan.listMinor && (
                  <span className="ml-2 text-sm text-slate-500 line-through">
                    {formatPrice(plan.listMinor, currency)}
                  </span>
                )}
              </p>
              <ul className="mt-5 flex-1 space-y-2 text-sm">
                <li className="flex gap-2">
                  <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-emerald-600" />
                  <span>
                    <strong>{plan.monthlyQuota.toLocaleString("en-US")}</strong> requests a month
                    {plan.id === "free" && (
                      <span className="text-slate-500" title="At least 50, up to 200; may vary">
                        {" "}
                        (minimum 50, up to 200, may vary)
                      </span>
                    )}
                  </span>
                </li>
                <li className="flex gap-2">
                  <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-emerald-600" />
                  <span>
                    <strong>{plan.perSecond}</strong> requests a second
                  </span>
                </li>
                {plan.notes.map((note) => (
                  <li key={note} className="flex gap-2">
                    <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-emerald-600" />
                    {note}
                  </li>
                ))}
              </ul>
              <button
                type="button"
                onClick={() => showApis(plan)}
                className="mt-4 text-left text-sm font-medium text-brand-600 hover:underline"
              >
                See the {plan.name} APIs
              </button>
              {plan.id === "free" ? (
                <Link
                  to="/"
                  className="mt-4 rounded-md border border-slate-300 px-4 py-2.5 text-center font-medium hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
                >
                  Start free
                </Link>
              ) : (
                <span className="mt-4" title={canBuy ? undefined : cannotBuyReason}>
                  <button
                    type="button"
                    disabled={!canBuy || buying !== null}
                    aria-describedby={canBuy ? undefined : mustVerify ? "verify-email-heading" : "login-first"}
                    aria-haspopup="dialog"
                    data-testid={`buy-${plan.id}`}
                    onClick={() => buy(plan)}
                    className={`w-full rounded-md px-4 py-2.5 font-medium disabled:cursor-not-allowed disabled:opacity-60 ${
                      popular
                        ? "bg-brand-600 text-white hover:bg-brand-700"
                        : "bg-slate-900 text-white hover:bg-slate-800 dark:bg-slate-100 dark:text-slate-900"
                    }`}
                  >
                    Buy Now
                  </button>
                </span>
              )}
            </article>
          );
        })}
      </div>
      {mustVerify && (
        <div className="mx-auto mt-4 max-w-2xl">
          <VerifyEmailNotice reason="buy a plan" />
        </div>
      )}
      {!canBuy && !mustVerify && (
        <p id="login-first" className="mt-4 text-center text-sm text-slate-500">
          Please login first:{" "}
          <Link to="/user/authenticate" className="text-brand-600 underline">
            sign up or log in
          </Link>{" "}
          to buy a plan.
        </p>
      )}
      <p className="mt-8 text-center text-sm text-slate-500">
        * The free tier typically supports 300 to 2500 requests a month, subject to variation.
      </p>
      <div className="mt-10 grid gap-6 md:grid-cols-2">
        <section aria-labelledby="custom-heading" className="rounded-2xl bg-slate-100 p-6 dark:bg-slate-900">
          <h2 id="custom-heading" className="text-lg font-semibold">
            Customized or carry-forward API requests?
          </h2>
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
            Need a custom quota, unused calls carried into next month, or an API we do not list yet? Write to us at{" "}
            <a href={`mailto:${SITE.supportEmail}`} className="text-brand-600 underline">
              {SITE.supportEmail}
            </a>
            .
          </p>
        </section>
        <section aria-labelledby="hire-heading" className="rounded-2xl bg-slate-100 p-6 dark:bg-slate-900">
          <h2 id="hire-heading" className="text-lg font-semibold">
            Hire developers for API integration
          </h2>
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
            Our developers can wire these APIs into your product, billed hourly. Tell us what you are building:{" "}
            <a href={`mailto:${SITE.supportEmail}`} className="text-brand-600 underline">
              {SITE.supportEmail}
            </a>
            .
          </p>
        </section>
      </div>
      <dialog
        ref={dialogRef}
        aria-labelledby="plan-apis-heading"
        onClick={(event) => {
          if (event.target === dialogRef.current) dialogRef.current.close();
        }}
        className="m-auto w-[min(36rem,calc(100vw-2rem))] rounded-2xl bg-white p-6 text-slate-900 backdrop:bg-slate-950/60 dark:bg-slate-900 dark:text-slate-100"
      >
        <div className="flex items-start justify-between gap-4">
          <h2 id="plan-apis-heading" className="text-xl font-bold">
            {shownPlan ? `${shownPlan.name} APIs` : "APIs"}
          </h2>
          <button
            type="button"
            onClick={() => dialogRef.current?.close()}
            className="rounded-md px-2 py-1 text-sm hover:bg-slate-100 dark:hover:bg-slate-800"
          >
            Close
          </button>
        </div>
        <div className="mt-4">{shownPlan && <IncludedApis planId={shownPlan.id} groups={groups} />}</div>
      </dialog>
      {paypal && (
        <PayPalCheckoutDialog plan={buying} sdk={paypal} sessionQuery={sessionQuery} onClose={() => setBuying(null)} />
      )}
      {cashfree && (
        <CashfreeCheckoutDialog
          plan={buying}
          sdk={cashfree}
          sessionQuery={sessionQuery}
          onClose={() => setBuying(null)}
        />
      )}
    </div>
  );
}
