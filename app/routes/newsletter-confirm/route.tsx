/** `/newsletter/confirm/:token`: the double opt-in link of the newsletter mail. */
import { Link } from "react-router";
import { PRIMARY_BUTTON } from "~/components/form-field";
import { pageMeta } from "~/lib/page-meta";
import { serverContext } from "~/lib/session.server";
import { confirmNewsletterSubscription } from "~workers/platform/newsletter";
import type { Route } from "./+types/route";

export const meta = () =>
  pageMeta("Newsletter", "Confirm your subscription to Portico's newsletter.", { noindex: true });

export async function loader({ params, context }: Route.LoaderArgs) {
  return { confirmed: await confirmNewsletterSubscription(serverContext(context).env.DB, params.token) };
}

export default function NewsletterConfirm({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-md px-4 py-16 text-center">
      <h1 className="text-2xl font-bold">{loaderData.confirmed ? "You are subscribed" : "This link does not work"}</h1>
      <p className="mt-3 text-slate-600 dark:text-slate-400">
        {loaderData.confirmed
          ? "Subscription successful! Thank you for subscribing to our newsletter."
          : "It may have been mistyped, or replaced by a newer link. Subscribe again from the home page."}
      </p>
      <Link to="/" className={`${PRIMARY_BUTTON} mt-6 inline-block`}>
        Go to Home
      </Link>
    </div>
  );
}
