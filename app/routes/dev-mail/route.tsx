/** The development mail outbox: what the outbox provider "sent". Absent outside development. */
import { data } from "react-router";
import { pageMeta } from "~/lib/page-meta";
import { serverContext } from "~/lib/session.server";
import type { Route } from "./+types/route";

export const meta = () =>
  pageMeta("Development mail", "The mail the local development server sent instead of delivering it.", {
    noindex: true,
  });

export async function loader({ context }: Route.LoaderArgs) {
  const { env, config } = serverContext(context);
  if (!config.isDevelopment || config.MAIL_PROVIDER !== "outbox") throw data(null, { status: 404 });
  const { results } = await env.DB.prepare(
    `SELECT id, to_address, subject, text_body, created_at FROM mail_outbox ORDER BY created_at DESC LIMIT 50`,
  ).all<{ id: string; to_address: string; subject: string; text_body: string; created_at: number }>();
  return { mails: results };
}

/** Turns the links in a plain-text mail into anchors, leaving the rest as text. */
function Linkified({ text }: { text: string }) {
  const parts = text.split(/(https?:\/\/\S+)/g);
  return (
    <>
      {parts.map((part, index) =>
        /^https?:\/\//.test(part) ? (
          <a key={index} href={part} className="text-brand-600 underline">
            {part}
          </a>
        ) : (
          part
        ),
      )}
    </>
  );
}

export default function DevMail({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-3xl px-4 py-12">
      <h1 className="text-2xl font-bold">Development mail</h1>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
        In development no mail leaves the machine: it lands here, newest first.
      </p>
      {loaderData.mails.length === 0 && <p className="mt-8">No mail yet.</p>}
      <ul className="mt-6 space-y-4">
        {loaderData.mails.map((mail) => (
          <li key={mail.id} className="rounded-xl border border-slate-200 p-4 dark:border-slate-800">
            <article aria-label={mail.subject}>
              <p className="text-xs text-slate-500">
                To {mail.to_address} · {new Date(mail.created_at).toISOString()}
              </p>
              <h2 className="mt-1 font-semibold">{mail.subject}</h2>
              <p className="mt-2 whitespace-pre-wrap text-sm">
                <Linkified text={mail.text_body} />
              </p>
            </article>
          </li>
        ))}
      </ul>
    </div>
  );
}
