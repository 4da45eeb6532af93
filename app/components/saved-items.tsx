/**
 * Saved avatars and saved QR codes (docs/product.md#saved-lists, decision 047): the account's
 * two lists, kept on the server so they follow it across devices. The live demo and the
 * dashboard both show them through this component; `useSavedList` is the one client of
 * `/api/user/saved/:list`.
 */
import { Check, Copy, Download } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import { Link } from "react-router";
import { apiRequest, serverMessage } from "~/lib/api-client";
import { API_KEY_PLACEHOLDER } from "~/lib/site";
import { DANGER_BUTTON, SECONDARY_BUTTON } from "./form-field";

export type SavedListName = "avatars" | "qrcodes";

/** Which hosted API's live demo saves into which list. */
export const SAVED_LIST_OF_API: Readonly<Record<string, SavedListName>> = { avatar: "avatars", qrcode: "qrcodes" };

const WORDS: Record<SavedListName, { title: string; noun: string; demo: string; demoName: string }> = {
  avatars: { title: "Saved avatars", noun: "avatar", demo: "/avatar/live-demo", demoName: "Avatars live demo" },
  qrcodes: { title: "Saved QR codes", noun: "QR code", demo: "/qrcode/live-demo", demoName: "QR Code live demo" },
};

export interface SavedItemView {
  id: string;
  position: number;
  operationId: string;
  method: string;
  path: string;
  input: Record<string, unknown>;
  createdAt: number;
}

export interface SavedListState {
  list: SavedListName;
  items: SavedItemView[];
  limit: number;
  loading: boolean;
  /** Why the list could not be read or emptied, in the server's words. */
  error: string;
  save(operationId: string, input: Record<string, unknown>): Promise<{ ok: true } | { ok: false; message: string }>;
  clear(): Promise<void>;
}

/** The account's list, read once the page is in the browser; `enabled` false for visitors. */
export function useSavedList(list: SavedListName, enabled: boolean): SavedListState {
  const [items, setItems] = useState<SavedItemView[]>([]);
  const [limit, setLimit] = useState(100);
  const [loading, setLoading] = useState(enabled);
  const [error, setError] = useState("");

  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    setLoading(true);
    apiRequest<{ items: SavedItemView[]; limit: number }>(`/user/saved/${list}`, { signal: controller.signal })
      .then((answer) => {
        if (!answer) return;
        setItems(answer.items);
        setLimit(answer.limit);
        setError("");
      })
      .catch((failure: unknown) =>
        setError(serverMessage(failure) ?? "Your saved list could not be read. Reload to try again."),
      )
      .finally(() => setLoading(false));
    return () => controller.abort();
  }, [list, enabled]);

  const save = useCallback(
    async (operationId: string, input: Record<string, unknown>) => {
      try {
        const answer = await apiRequest<{ item: SavedItemView }>(`/user/saved/${list}`, {
          method: "POST",
          options: { operation: operationId, input },
        });
        if (!answer) return { ok: false as const, message: "Sign in again to save." };
        setItems((current) => [...current, answer.item]);
        return { ok: true as const };
      } catch (failure) {
        return { ok: false as const, message: serverMessage(failure) ?? "It could not be saved. Try again." };
      }
    },
    [list],
  );

  const clear = useCallback(async () => {
    try {
      await apiRequest(`/user/saved/${list}`, { method: "DELETE" });
      setItems([]);
      setError("");
    } catch (failure) {
      setError(serverMessage(failure) ?? "The list could not be deleted. Try again.");
    }
  }, [list]);

  return { list, items, limit, loading, error, save, clear };
}

/** Quotes a word for a POSIX shell: inside single quotes nothing is special but the quote itself. */
function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * What "Copy request" copies: the call that makes this image with the reader's own key (a
 * placeholder here, never a real key). A developer saves an image to make it from code, and the
 * request is text that pastes into a terminal or a program and gives the same bytes.
 */
export function requestFor(item: Pick<SavedItemView, "method" | "path" | "input">, origin: string): string {
  const key = `-H ${shellQuote(`x-api-key: ${API_KEY_PLACEHOLDER}`)}`;
  if (item.method === "GET") {
    const query = new URLSearchParams(Object.entries(item.input).map(([name, value]) => [name, String(value)]));
    return `curl ${shellQuote(`${origin}${item.path}?${query}`)} ${key} -o image`;
  }
  return [
    `curl -X ${item.method} ${shellQuote(origin + item.path)}`,
    `  ${key}`,
    `  -H ${shellQuote("content-type: application/json")}`,
    `  -d ${shellQuote(JSON.stringify(item.input))}`,
    `  -o image`,
  ].join(" \\\n");
}

/** An input value as a reader scans it: long values (a logo's data URL) cut short. */
function shown(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

function SavedItemCard({ item, list }: { item: SavedItemView; list: SavedListName }) {
  const [copied, setCopied] = useState<"" | "done" | "failed">("");
  const image = `/api/user/saved/${list}/${item.id}/image`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(requestFor(item, window.location.origin));
      setCopied("done");
    } catch {
      setCopied("failed");
    }
    setTimeout(() => setCopied(""), 2_000);
  };
  return (
    <li
      aria-label={`${WORDS[list].noun} ${item.position}`}
      className="flex gap-3 rounded-lg border border-slate-200 p-3 dark:border-slate-800"
    >
      <img
        src={image}
        alt={`Saved ${WORDS[list].noun} ${item.position}`}
        width={72}
        height={72}
        loading="lazy"
        className="h-18 w-18 shrink-0 rounded border border-slate-200 bg-white object-contain dark:border-slate-700"
      />
      <div className="min-w-0 flex-1">
        <dl className="grid grid-cols-[auto_1fr] gap-x-2 text-xs">
          {Object.entries(item.input).map(([name, value]) => (
            <div key={name} className="contents">
              <dt className="font-mono text-slate-500">{name}</dt>
              <dd className="truncate font-mono" title={typeof value === "string" ? value : JSON.stringify(value)}>
                {shown(value)}
              </dd>
            </div>
          ))}
        </dl>
        <div className="mt-2 flex flex-wrap items-center gap-3 text-sm">
          <a
            href={`${image}?download`}
            download
            className="inline-flex items-center gap-1 font-medium text-brand-600 hover:underline"
          >
            <Download className="h-4 w-4" aria-hidden /> Download
          </a>
          <button
            type="button"
            onClick={copy}
            className="inline-flex items-center gap-1 font-medium text-brand-600 hover:underline"
          >
            {copied === "done" ? <Check className="h-4 w-4" aria-hidden /> : <Copy className="h-4 w-4" aria-hidden />}
            {copied === "done" ? "Copied" : "Copy request"}
          </button>
          {copied === "failed" && (
            <span role="alert" className="text-xs text-red-600">
              This browser did not allow copying.
            </span>
          )}
        </div>
      </div>
    </li>
  );
}

/** One saved list: its items with their inputs, Download and Copy request, and 'Delete list'. */
export function SavedItemsPanel({ state }: { state: SavedListState }) {
  const { list, items, limit, loading, error } = state;
  const words = WORDS[list];
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const headingId = `saved-${list}-heading`;
  const remove = async () => {
    setDeleting(true);
    await state.clear();
    setDeleting(false);
    setConfirming(false);
  };
  return (
    <section aria-labelledby={headingId} className="rounded-xl border border-slate-200 p-5 dark:border-slate-800">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={headingId} className="text-lg font-semibold">
          {words.title}
        </h2>
        {!loading && (
          <span className="text-sm text-slate-500" data-testid={`saved-${list}-count`}>
            {items.length} of {limit}
          </span>
        )}
      </div>
      {loading && <p className="mt-2 text-sm text-slate-500">Loading your saved {words.noun}s…</p>}
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-600">
          {error}
        </p>
      )}
      {!loading && items.length === 0 && (
        <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
          Nothing saved yet. Make one in the{" "}
          <Link to={words.demo} className="text-brand-600 underline">
            {words.demoName}
          </Link>{" "}
          and press Save.
        </p>
      )}
      {items.length > 0 && (
        <>
          <ul className="mt-3 grid gap-3 sm:grid-cols-2">
            {items.map((item) => (
              <SavedItemCard key={item.id} item={item} list={list} />
            ))}
          </ul>
          <div className="mt-4">
            {confirming ? (
              <div role="group" aria-label="Confirm deleting the list" className="flex flex-wrap items-center gap-3">
                <span className="text-sm">
                  Delete all {items.length} saved {items.length === 1 ? words.noun : `${words.noun}s`}? This cannot be
                  undone.
                </span>
                <button type="button" onClick={remove} disabled={deleting} className={DANGER_BUTTON}>
                  {deleting ? "Deleting…" : "Yes, delete"}
                </button>
                <button type="button" onClick={() => setConfirming(false)} className={SECONDARY_BUTTON}>
                  Cancel
                </button>
              </div>
            ) : (
              <button type="button" onClick={() => setConfirming(true)} className={SECONDARY_BUTTON}>
                Delete list
              </button>
            )}
          </div>
        </>
      )}
    </section>
  );
}

/**
 * 'Save' beside a live demo's image, with the server's answer beside it; signed out, a link to
 * sign in instead of a button that cannot work.
 */
export function SaveDrawing({
  state,
  signedIn,
  drawing,
}: {
  state: SavedListState | null;
  signedIn: boolean;
  drawing: { operationId: string; input: Record<string, unknown> } | null;
}) {
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [saving, setSaving] = useState(false);
  // A new drawing clears what was said about the last one.
  useEffect(() => setMessage(null), [drawing]);
  if (!state) return null;
  const noun = WORDS[state.list].noun;
  if (!signedIn) {
    return (
      <p className="text-sm">
        <Link to="/user/authenticate" className="font-medium text-brand-600 underline">
          Sign in to save
        </Link>{" "}
        this {noun} to your account.
      </p>
    );
  }
  if (!drawing) return null;
  const save = async () => {
    setSaving(true);
    const saved = await state.save(drawing.operationId, drawing.input);
    setSaving(false);
    setMessage(
      saved.ok
        ? { ok: true, text: `Saved to your ${noun}s (${state.items.length + 1} of ${state.limit}).` }
        : { ok: false, text: saved.message },
    );
  };
  return (
    <div className="flex flex-wrap items-center gap-3">
      <button type="button" onClick={save} disabled={saving} className={SECONDARY_BUTTON}>
        {saving ? "Saving…" : `Save this ${noun}`}
      </button>
      {message && (
        <span
          role={message.ok ? "status" : "alert"}
          className={message.ok ? "text-sm text-emerald-700 dark:text-emerald-300" : "text-sm text-red-600"}
        >
          {message.text}
        </span>
      )}
    </div>
  );
}
