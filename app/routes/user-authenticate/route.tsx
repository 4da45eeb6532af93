/**
 * Sign up and log in (docs/product.md#sign-in, public-only): email and password, or an
 * OpenID Connect provider; plus 'Forgot password'. Each field's message shows beside it and
 * nothing typed but the password is lost.
 */
import { useState } from "react";
import { data, Form, Link, redirect, useNavigation, useSearchParams } from "react-router";
import { fieldErrors, FormField, PRIMARY_BUTTON, SECONDARY_BUTTON } from "~/components/form-field";
import { titled } from "~/lib/page-meta";
import { requireAnonymous, serverContext } from "~/lib/session.server";
import { accountServices } from "~workers/platform/account-services";
import { EmailSchema, LogInSchema } from "~workers/platform/accounts";
import { forgotPassword } from "~workers/platform/password-reset";
import { CHECK_INBOX_MESSAGE, registerWithPassword, SignUpSchema } from "~workers/platform/registration";
import { attemptPasswordLogIn, startSession } from "~workers/platform/sign-in";
import type { Route } from "./+types/route";

type Mode = "login" | "signup" | "forgot";

export const meta = () => [
  { title: titled("Sign up or log in") },
  { name: "description", content: "Create a Portico account or log in to get your API key." },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAnonymous(request, context);
  return null;
}

const OIDC_ERRORS: Record<string, string> = {
  "email-unverified-conflict":
    "An account with this email exists, and the provider did not confirm the address. Log in with your password.",
  failed: "Signing in with Google did not work. Please try again.",
};

export async function action({ request, context }: Route.ActionArgs) {
  const { env, ctx, config } = serverContext(context);
  const services = accountServices(config, env, request, (promise) => ctx.waitUntil(promise));
  const form = Object.fromEntries(await request.formData());
  const intent = String(form.intent ?? "");
  const values = { email: String(form.email ?? ""), name: String(form.name ?? "") };
  const tooMany = (retryAfterSeconds: number, what: string) => {
    const minutes = Math.ceil(retryAfterSeconds / 60);
    return data(
      { intent, values, errors: { form: `${what} Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.` } },
      { status: 429, headers: { "Retry-After": String(retryAfterSeconds) } },
    );
  };

  if (intent === "signup") {
    const parsed = SignUpSchema.safeParse({ ...form, referralCode: form.referralCode || undefined });
    if (!parsed.success) return data({ intent, values, errors: fieldErrors(parsed.error.issues) }, { status: 400 });
    const result = await registerWithPassword(services, request, parsed.data);
    if (!result.ok) {
      if (result.code === "throttled") return tooMany(result.retryAfterSeconds, "Too many sign-ups.");
      return data({ intent, values, errors: { password: result.message } }, { status: 400 });
    }
    // The same answer whether or not the address has an account (the owner gets a mail).
    const message = `${CHECK_INBOX_MESSAGE} We sent it to ${result.email}.`;
    return data({ intent, values, sent: true, message, errors: {} as Record<string, string> });
  }

  if (intent === "login") {
    const parsed = LogInSchema.safeParse(form);
    if (!parsed.success) return data({ intent, values, errors: fieldErrors(parsed.error.issues) }, { status: 400 });
    const attempt = await attemptPasswordLogIn(env.DB, request, parsed.data);
    if (!attempt.ok) {
      if (attempt.code === "throttled") return tooMany(attempt.retryAfterSeconds, "Too many failed logins.");
      return data({ intent, values, errors: { form: "Wrong email or password." } }, { status: 401 });
    }
    const started = await startSession(env.DB, config.SESSION_SECRET, request, attempt.user);
    return redirect("/user/dashboard", { headers: { "Set-Cookie": started.setCookie } });
  }

  if (intent === "forgot") {
    const parsed = EmailSchema.safeParse(form.email);
    if (!parsed.success)
      return data({ intent, values, errors: { email: parsed.error.issues[0]?.message } }, { status: 400 });
    const result = await forgotPassword(services, request, parsed.data);
    if (!result.ok) return tooMany(result.retryAfterSeconds, "Too many requests.");
    const message = "If an account uses this address, a reset link is on its way. It works once, for 30 minutes.";
    return data({ intent, values, sent: true, message, errors: {} as Record<string, string> });
  }

  return data({ intent, values, errors: { form: "Unknown request." } }, { status: 400 });
}

export default function Authenticate({ actionData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const initial = (params.get("mode") as Mode | null) ?? (actionData?.intent as Mode | undefined) ?? "login";
  const [mode, setMode] = useState<Mode>(["login", "signup", "forgot"].includes(initial) ? initial : "login");
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const referralCode = params.get("ref") ?? "";
  const oidcError = params.get("error");
  const result = actionData?.intent === mode ? actionData : undefined;
  const errors: Record<string, string | undefined> = result?.errors ?? {};
  const sentMessage = result && "message" in result && typeof result.message === "string" ? result.message : undefined;

  const tab = (value: Mode, label: string) => (
    <button
      type="button"
      role="tab"
      aria-selected={mode === value}
      onClick={() => setMode(value)}
      className="flex-1 rounded-md px-3 py-2 text-sm font-medium aria-selected:bg-white aria-selected:shadow dark:aria-selected:bg-slate-800"
    >
      {label}
    </button>
  );

  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <h1 className="text-3xl font-bold tracking-tight">
        {mode === "signup" ? "Create your account" : mode === "forgot" ? "Reset your password" : "Log in"}
      </h1>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
        {mode === "signup"
          ? "Free plan included: 200 calls a month, no card needed."
          : mode === "forgot"
            ? "We will email you a link to set a new password."
            : "Welcome back. Your keys and usage are waiting."}
      </p>
      {referralCode && mode === "signup" && (
        <p className="mt-3 rounded-md bg-emerald-50 p-3 text-sm text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200">
          Invited with code <strong>{referralCode}</strong>: you get 200 bonus calls and 5% off every plan.
        </p>
      )}
      {params.get("reset") && (
        <p
          role="status"
          className="mt-3 rounded-md bg-emerald-50 p-3 text-sm text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200"
        >
          Password changed. Log in with the new one.
        </p>
      )}
      {oidcError && (
        <p
          role="alert"
          className="mt-3 rounded-md bg-red-50 p-3 text-sm text-red-700 dark:bg-red-950 dark:text-red-200"
        >
          {OIDC_ERRORS[oidcError] ?? OIDC_ERRORS.failed}
        </p>
      )}

      {mode !== "forgot" && (
        <div
          role="tablist"
          aria-label="Log in or sign up"
          className="mt-6 flex gap-1 rounded-lg bg-slate-100 p-1 dark:bg-slate-900"
        >
          {tab("login", "Log in")}
          {tab("signup", "Sign up")}
        </div>
      )}

      <Form method="post" noValidate className="mt-6 space-y-4" key={mode}>
        <input type="hidden" name="intent" value={mode} />
        {mode === "signup" && (
          <>
            <input type="hidden" name="referralCode" value={referralCode} />
            <FormField
              name="name"
              label="Name (optional)"
              autoComplete="name"
              defaultValue={result?.values.name}
              error={errors.name}
            />
          </>
        )}
        <FormField
          name="email"
          label="Email"
          type="email"
          autoComplete="email"
          required
          defaultValue={result?.values.email}
          error={errors.email}
        />
        {mode !== "forgot" && (
          <FormField
            name="password"
            label="Password"
            type="password"
            required
            autoComplete={mode === "signup" ? "new-password" : "current-password"}
            hint={mode === "signup" ? "At least 10 characters; a phrase is easier to remember." : undefined}
            error={errors.password}
          />
        )}
        {errors.form && (
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            {errors.form}
          </p>
        )}
        {sentMessage && (
          <p
            role="status"
            className="rounded-md bg-emerald-50 p-3 text-sm text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200"
          >
            {sentMessage}
          </p>
        )}
        <button type="submit" disabled={busy} className={`${PRIMARY_BUTTON} w-full`}>
          {mode === "signup" ? "Create account" : mode === "forgot" ? "Send reset link" : "Log in"}
        </button>
      </Form>

      {mode === "login" && (
        <button type="button" onClick={() => setMode("forgot")} className="mt-3 text-sm text-brand-600 hover:underline">
          Forgot password?
        </button>
      )}
      {mode === "forgot" && (
        <button type="button" onClick={() => setMode("login")} className="mt-3 text-sm text-brand-600 hover:underline">
          Back to log in
        </button>
      )}

      {mode !== "forgot" && (
        <>
          <div className="my-6 flex items-center gap-3 text-xs uppercase text-slate-500">
            <span className="h-px flex-1 bg-slate-200 dark:bg-slate-800" /> or{" "}
            <span className="h-px flex-1 bg-slate-200 dark:bg-slate-800" />
          </div>
          {/* A plain link: the sign-in leaves the site for the identity provider and comes back. */}
          <a
            href={`/api/auth/oidc/start${referralCode ? `?ref=${encodeURIComponent(referralCode)}` : ""}`}
            className={`${SECONDARY_BUTTON} flex w-full items-center justify-center gap-2`}
          >
            <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4">
              <path
                fill="#4285F4"
                d="M23.5 12.3c0-.8-.1-1.6-.2-2.3H12v4.5h6.5a5.6 5.6 0 0 1-2.4 3.6v3h3.9c2.3-2.1 3.5-5.2 3.5-8.8z"
              />
              <path
                fill="#34A853"
                d="M12 24c3.2 0 6-1.1 8-2.9l-3.9-3c-1.1.7-2.5 1.2-4.1 1.2-3.1 0-5.8-2.1-6.7-5H1.3v3.1A12 12 0 0 0 12 24z"
              />
              <path fill="#FBBC05" d="M5.3 14.3a7.2 7.2 0 0 1 0-4.6V6.6h-4a12 12 0 0 0 0 10.8l4-3.1z" />
              <path
                fill="#EA4335"
                d="M12 4.8c1.8 0 3.3.6 4.6 1.8l3.4-3.4A12 12 0 0 0 1.3 6.6l4 3.1c.9-2.9 3.6-4.9 6.7-4.9z"
              />
            </svg>
            Continue with Google
          </a>
        </>
      )}
      <p className="mt-8 text-xs text-slate-500 dark:text-slate-400">
        By continuing you accept the{" "}
        <Link to="/terms-and-conditions" className="underline">
          Terms and Conditions
        </Link>{" "}
        and the{" "}
        <Link to="/privacy-policy" className="underline">
          Privacy Policy
        </Link>
        .
      </p>
    </div>
  );
}
