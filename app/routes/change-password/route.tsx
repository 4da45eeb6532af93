/** Setting a new password from an emailed link (docs/product.md#password-reset). */
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { FormField, PRIMARY_BUTTON } from "~/components/form-field";
import { pageMeta } from "~/lib/page-meta";
import { serverContext } from "~/lib/session.server";
import { isResetTokenUsable, resetPassword } from "~workers/platform/password-reset";
import type { Route } from "./+types/route";

export const meta = () =>
  pageMeta("Set a new password", "Choose a new password for your Portico account.", { noindex: true });

export async function loader({ params, context }: Route.LoaderArgs) {
  return { usable: await isResetTokenUsable(serverContext(context).env.DB, params.token) };
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const password = String(form.get("password") ?? "");
  if (password !== String(form.get("confirm") ?? "")) {
    return data({ errors: { confirm: "The two passwords differ." } as Record<string, string> }, { status: 400 });
  }
  const result = await resetPassword(serverContext(context).env.DB, params.token, password);
  if (!result.ok) {
    const errors: Record<string, string> =
      result.code === "invalid-token"
        ? { form: "This link has expired or was already used." }
        : { password: result.message };
    return data({ errors }, { status: 400 });
  }
  return redirect("/user/authenticate?mode=login&reset=1");
}

export default function ChangePassword({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const errors: Record<string, string | undefined> = actionData?.errors ?? {};
  if (!loaderData.usable) {
    return (
      <div className="mx-auto max-w-md px-4 py-16 text-center">
        <h1 className="text-2xl font-bold">This link no longer works</h1>
        <p className="mt-3 text-slate-600 dark:text-slate-400">
          Reset links work once, for 30 minutes. Ask for a new one.
        </p>
        <Link to="/user/authenticate?mode=forgot" className={`${PRIMARY_BUTTON} mt-6 inline-block`}>
          Send a new link
        </Link>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <h1 className="text-2xl font-bold">Set a new password</h1>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
        Every device signed in to your account will be signed out.
      </p>
      <Form method="post" noValidate className="mt-6 space-y-4">
        <FormField
          name="password"
          label="New password"
          type="password"
          autoComplete="new-password"
          hint="At least 10 characters."
          error={errors.password}
        />
        <FormField
          name="confirm"
          label="Repeat the new password"
          type="password"
          autoComplete="new-password"
          error={errors.confirm}
        />
        {errors.form && (
          <p role="alert" className="text-sm text-red-600">
            {errors.form}
          </p>
        )}
        <button type="submit" disabled={busy} className={`${PRIMARY_BUTTON} w-full`}>
          Set password
        </button>
      </Form>
    </div>
  );
}
