/**
 * Settings (docs/product.md#settings): profile, password, sign out everywhere, delete account.
 */
import { data, Form, redirect, useNavigation } from "react-router";
import { DANGER_BUTTON, fieldErrors, FormField, PRIMARY_BUTTON, SECONDARY_BUTTON } from "~/components/form-field";
import { pageMeta } from "~/lib/page-meta";
import { requireSession, serverContext } from "~/lib/session.server";
import { gatewayNotices } from "~workers/gateway/meter-notices";
import { changePassword, deleteAccount, ProfileSchema, updateProfile } from "~workers/platform/accounts";
import { isSecureRequest } from "~workers/platform/cookies";
import { clearSessionCookieHeader, endAllSessions } from "~workers/platform/sessions";
import { startSession } from "~workers/platform/sign-in";
import { findUserById } from "~workers/platform/users";
import type { Route } from "./+types/route";

export const meta = () =>
  pageMeta("Settings", "Your Portico profile, password and sessions, and deleting the account.");

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireSession(request, context);
  return { name: user.name, email: user.email, avatarUrl: user.avatarUrl ?? "", hasPassword: user.hasPassword };
}

type Section = "profile" | "password" | "delete";
type Result = { section: Section; errors?: Record<string, string>; saved?: string };

export async function action({ request, context }: Route.ActionArgs) {
  const session = await requireSession(request, context);
  const { env, config } = serverContext(context);
  const { user } = session;
  const form = await request.formData();
  const intent = String(form.get("intent"));
  const signedOut = { headers: { "Set-Cookie": clearSessionCookieHeader(isSecureRequest(request)) } };

  if (intent === "profile") {
    const parsed = ProfileSchema.safeParse({ name: form.get("name") ?? "", avatarUrl: form.get("avatarUrl") ?? "" });
    if (!parsed.success)
      return data<Result>({ section: "profile", errors: fieldErrors(parsed.error.issues) }, { status: 400 });
    await updateProfile(env.DB, user.id, parsed.data);
    return data<Result>({ section: "profile", saved: "Profile saved." });
  }

  if (intent === "password") {
    const result = await changePassword(
      env.DB,
      user.id,
      String(form.get("currentPassword") ?? ""),
      String(form.get("newPassword") ?? ""),
    );
    if (!result.ok) {
      const errors: Record<string, string> =
        result.code === "wrong-password"
          ? { currentPassword: "That is not your current password." }
          : { newPassword: result.message };
      return data<Result>({ section: "password", errors }, { status: 400 });
    }
    // Changing the password ended every session, this one too: start a fresh one here.
    const fresh = await findUserById(env.DB, user.id);
    if (!fresh) return redirect("/", signedOut);
    const started = await startSession(env.DB, config.SESSION_SECRET, request, fresh);
    return data<Result>(
      { section: "password", saved: "Password changed. Your other devices are signed out." },
      { headers: { "Set-Cookie": started.setCookie } },
    );
  }

  if (intent === "sign-out-everywhere") {
    await endAllSessions(env.DB, user.id);
    return redirect("/", signedOut);
  }

  if (intent === "delete") {
    if (
      String(form.get("confirmation") ?? "")
        .trim()
        .toLowerCase() !== user.email
    ) {
      return data<Result>(
        { section: "delete", errors: { confirmation: "Type your email address exactly to confirm." } },
        { status: 400 },
      );
    }
    await deleteAccount(env.DB, gatewayNotices(env), user.id, Date.now(), env.AI_IMAGES);
    return redirect("/", signedOut);
  }

  return data<Result>({ section: "profile", errors: { form: "Unknown request." } }, { status: 400 });
}

function Saved({ text }: { text?: string }) {
  return text ? (
    <p role="status" className="text-sm text-emerald-700 dark:text-emerald-400">
      {text}
    </p>
  ) : null;
}

export default function SettingsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { name, email, avatarUrl, hasPassword } = loaderData;
  const busy = useNavigation().state === "submitting";
  const result = actionData as Result | undefined;
  const errorsFor = (section: Section): Record<string, string | undefined> =>
    result?.section === section ? (result.errors ?? {}) : {};
  const savedFor = (section: Section) => (result?.section === section ? result.saved : undefined);
  const card = "rounded-xl border border-slate-200 p-5 dark:border-slate-800";

  return (
    <div className="max-w-2xl space-y-6">
      <h1 className="text-2xl font-bold">Settings</h1>

      <section aria-labelledby="profile-heading" className={card}>
        <h2 id="profile-heading" className="text-lg font-semibold">
          Profile
        </h2>
        <Form method="post" noValidate className="mt-4 space-y-4">
          <input type="hidden" name="intent" value="profile" />
          <FormField
            name="name"
            label="Name"
            defaultValue={name}
            autoComplete="name"
            error={errorsFor("profile").name}
          />
          <FormField
            name="avatarUrl"
            label="Avatar image address"
            type="url"
            placeholder="https://…"
            defaultValue={avatarUrl}
            hint="An https:// link to a square picture. Leave empty for your initial."
            error={errorsFor("profile").avatarUrl}
          />
          <div className="flex items-center gap-4">
            <button type="submit" disabled={busy} className={PRIMARY_BUTTON}>
              Save profile
            </button>
            <Saved text={savedFor("profile")} />
          </div>
        </Form>
      </section>

      <section aria-labelledby="password-heading" className={card}>
        <h2 id="password-heading" className="text-lg font-semibold">
          Password
        </h2>
        <Form method="post" noValidate className="mt-4 space-y-4">
          <input type="hidden" name="intent" value="password" />
          {hasPassword && (
            <FormField
              name="currentPassword"
              label="Current password"
              type="password"
              autoComplete="current-password"
              error={errorsFor("password").currentPassword}
            />
          )}
          <FormField
            name="newPassword"
            label={hasPassword ? "New password" : "Set a password"}
            type="password"
            autoComplete="new-password"
            hint="At least 10 characters."
            error={errorsFor("password").newPassword}
          />
          <div className="flex items-center gap-4">
            <button type="submit" disabled={busy} className={PRIMARY_BUTTON}>
              Change password
            </button>
            <Saved text={savedFor("password")} />
          </div>
        </Form>
      </section>

      <section aria-labelledby="sessions-heading" className={card}>
        <h2 id="sessions-heading" className="text-lg font-semibold">
          Sessions
        </h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          Signs you out on every device and browser, this one too.
        </p>
        <Form method="post" className="mt-4">
          <button type="submit" name="intent" value="sign-out-everywhere" disabled={busy} className={SECONDARY_BUTTON}>
            Sign out everywhere
          </button>
        </Form>
      </section>

      <section aria-labelledby="delete-heading" className={`${card} border-red-300 dark:border-red-900`}>
        <h2 id="delete-heading" className="text-lg font-semibold text-red-700 dark:text-red-400">
          Delete account
        </h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          Removes your keys, sessions and personal data at once. Payments stay as records without your details, as
          accounting law requires. This cannot be undone.
        </p>
        <Form method="post" noValidate className="mt-4 space-y-4">
          <input type="hidden" name="intent" value="delete" />
          <FormField
            name="confirmation"
            label={`Type ${email} to confirm`}
            autoComplete="off"
            error={errorsFor("delete").confirmation}
          />
          <button type="submit" disabled={busy} className={DANGER_BUTTON}>
            Delete my account
          </button>
        </Form>
      </section>
    </div>
  );
}
