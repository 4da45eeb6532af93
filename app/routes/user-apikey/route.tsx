/**
 * API keys (docs/product.md#api-key-page): name and create keys, see a new key's whole value once,
 * then only its prefix; revoke and rotate.
 */
import { Check, Copy, KeyRound } from "lucide-react";
import { useEffect, useState } from "react";
import { data, Form, useNavigation } from "react-router";
import { DANGER_BUTTON, fieldErrors, FormField, PRIMARY_BUTTON, SECONDARY_BUTTON } from "~/components/form-field";
import { pageMeta } from "~/lib/page-meta";
import { rememberApiKey } from "~/lib/stored-api-key";
import { requireSession, serverContext } from "~/lib/session.server";
import {
  createApiKey,
  KeyNameSchema,
  listApiKeys,
  MAX_KEYS_PER_USER,
  revokeApiKey,
  rotateApiKey,
} from "~workers/platform/api-keys";
import { gatewayNotices } from "~workers/gateway/meter-notices";
import { EMAIL_UNVERIFIED_MESSAGE, hasVerifiedEmail } from "~workers/platform/roles";
import { VerifyEmailNotice } from "~/components/verify-email-notice";
import type { Route } from "./+types/route";

export const meta = () => pageMeta("API keys", "Make, rotate and revoke the API keys that call Portico's hosted APIs.");

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireSession(request, context);
  return { keys: await listApiKeys(serverContext(context).env.DB, user.id), emailVerified: hasVerifiedEmail(user) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireSession(request, context);
  const { env } = serverContext(context);
  const form = await request.formData();
  const intent = String(form.get("intent"));
  const keyId = String(form.get("keyId") ?? "");

  if (intent === "create") {
    const name = KeyNameSchema.safeParse(form.get("name"));
    if (!name.success)
      return data({ errors: fieldErrors(name.error.issues.map((i) => ({ ...i, path: ["name"] }))) }, { status: 400 });
    const result = await createApiKey(env.DB, user.id, name.data);
    if (!result.ok)
      return data(
        {
          errors: {
            name:
              result.code === "email-unverified"
                ? EMAIL_UNVERIFIED_MESSAGE
                : `You can hold at most ${MAX_KEYS_PER_USER} active keys. Revoke one first.`,
          },
        },
        { status: result.code === "email-unverified" ? 403 : 400 },
      );
    return { created: { key: result.key, name: result.summary.name } };
  }
  if (intent === "rotate") {
    const result = await rotateApiKey(env.DB, gatewayNotices(env), user.id, keyId);
    if (!result.ok && result.code === "email-unverified")
      return data({ errors: { form: EMAIL_UNVERIFIED_MESSAGE } }, { status: 403 });
    if (!result.ok) return data({ errors: { form: "That key is no longer active." } }, { status: 404 });
    return { created: { key: result.key, name: result.summary.name } };
  }
  if (intent === "revoke") {
    const revoked = await revokeApiKey(env.DB, gatewayNotices(env), user.id, keyId);
    return revoked ? { revoked: true } : data({ errors: { form: "That key is no longer active." } }, { status: 404 });
  }
  return data({ errors: { form: "Unknown request." } }, { status: 400 });
}

const dateFormat = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  timeZone: "UTC",
});

function NewKey({ value, name }: { value: string; name: string }) {
  const [copied, setCopied] = useState(false);
  // The docs samples and live demos use the newest key, from this browser only.
  useEffect(() => rememberApiKey(value), [value]);
  return (
    <section
      aria-labelledby="new-key-heading"
      className="rounded-xl border border-emerald-300 bg-emerald-50 p-5 dark:border-emerald-800 dark:bg-emerald-950"
    >
      <h2 id="new-key-heading" className="font-semibold">
        Your new key “{name}”
      </h2>
      <p className="mt-1 text-sm">
        Copy it now: it is shown only this once. We keep only a fingerprint of it; this browser keeps it for the docs
        samples and live demos.
      </p>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <code data-testid="new-api-key" className="break-all rounded-md bg-white px-3 py-2 text-sm dark:bg-slate-900">
          {value}
        </code>
        <button
          type="button"
          className={`${SECONDARY_BUTTON} flex items-center gap-1.5`}
          onClick={async () => {
            await navigator.clipboard.writeText(value).catch(() => undefined);
            setCopied(true);
            setTimeout(() => setCopied(false), 1_500);
          }}
        >
          {copied ? <Check aria-hidden="true" className="size-4" /> : <Copy aria-hidden="true" className="size-4" />}
          {copied ? "Copied!" : "Copy key"}
        </button>
      </div>
    </section>
  );
}

export default function ApiKeys({ loaderData, actionData }: Route.ComponentProps) {
  const { keys, emailVerified } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const errors: Record<string, string | undefined> =
    (actionData && "errors" in actionData ? actionData.errors : undefined) ?? {};
  const created = actionData && "created" in actionData ? actionData.created : undefined;
  const active = keys.filter((key) => key.revokedAt === null);
  const revoked = keys.filter((key) => key.revokedAt !== null);

  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold">API keys</h1>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Send a key in the <code>x-api-key</code> header of every call. Make one key per app, so you can revoke one
        without touching the others.
      </p>
      {created && <NewKey value={created.key} name={created.name} />}
      {errors.form && (
        <p role="alert" className="text-sm text-red-600">
          {errors.form}
        </p>
      )}
      {!emailVerified && <VerifyEmailNotice reason="create API keys" />}
      <Form method="post" className="flex flex-wrap items-end gap-3" noValidate key={created?.key ?? "new"}>
        <input type="hidden" name="intent" value="create" />
        <div className="w-full max-w-xs">
          <FormField
            name="name"
            label="Key name"
            placeholder="e.g. Production server"
            maxLength={60}
            error={errors.name}
          />
        </div>
        <button type="submit" disabled={busy || !emailVerified} className={PRIMARY_BUTTON}>
          Create key
        </button>
      </Form>

      <section aria-labelledby="keys-heading">
        <h2 id="keys-heading" className="text-lg font-semibold">
          Active keys
        </h2>
        {active.length === 0 ? (
          <p className="mt-2 flex items-center gap-2 text-sm text-slate-600 dark:text-slate-400">
            <KeyRound aria-hidden="true" className="size-4" /> No keys yet. Create one above to make your first call.
          </p>
        ) : (
          <div className="mt-3 overflow-x-auto">
            <table className="w-full min-w-[36rem] text-left text-sm">
              <thead>
                <tr className="border-b border-slate-200 dark:border-slate-700">
                  <th scope="col" className="py-2 pr-4">
                    Name
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    Key
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    Created
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    Last used
                  </th>
                  <th scope="col" className="py-2">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {active.map((key) => (
                  <tr key={key.id} className="border-b border-slate-100 dark:border-slate-800">
                    <th scope="row" className="py-2 pr-4 font-medium">
                      {key.name}
                    </th>
                    <td className="py-2 pr-4">
                      <code>{key.prefix}…</code>
                    </td>
                    <td className="py-2 pr-4">{dateFormat.format(key.createdAt)}</td>
                    <td className="py-2 pr-4">{key.lastUsedAt ? dateFormat.format(key.lastUsedAt) : "Never"}</td>
                    <td className="flex justify-end gap-2 py-2">
                      <Form method="post">
                        <input type="hidden" name="keyId" value={key.id} />
                        <button
                          type="submit"
                          name="intent"
                          value="rotate"
                          disabled={busy}
                          className={SECONDARY_BUTTON}
                          aria-label={`Rotate ${key.name}`}
                        >
                          Rotate
                        </button>
                      </Form>
                      <Form
                        method="post"
                        onSubmit={(event) => {
                          if (!window.confirm(`Revoke “${key.name}”? Apps using it stop working within seconds.`))
                            event.preventDefault();
                        }}
                      >
                        <input type="hidden" name="keyId" value={key.id} />
                        <button
                          type="submit"
                          name="intent"
                          value="revoke"
                          disabled={busy}
                          className={DANGER_BUTTON}
                          aria-label={`Revoke ${key.name}`}
                        >
                          Revoke
                        </button>
                      </Form>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      {revoked.length > 0 && (
        <section aria-labelledby="revoked-heading">
          <h2 id="revoked-heading" className="text-lg font-semibold">
            Revoked keys
          </h2>
          <ul className="mt-2 space-y-1 text-sm text-slate-500 dark:text-slate-400">
            {revoked.map((key) => (
              <li key={key.id}>
                {key.name} <code>{key.prefix}…</code>, revoked {key.revokedAt ? dateFormat.format(key.revokedAt) : ""}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
