/**
 * The live demo (docs/product.md#live-demo): call an API from the browser with your own key
 * and see the status, the rate-limit headers and the result, rendered. The Avatars and QR Code
 * demos save what they drew to the account's list and show it (docs/product.md#saved-lists).
 * Uploads show their progress; a PDF answer is shown in the page; an OCR answer's line and word
 * boxes are drawn over the image it read. The input is edited in a form built from the call's
 * schema or as raw JSON beside it, the two kept in step (app/lib/schema-form.ts).
 */
import { useEffect, useMemo, useReducer, useRef, useState, type FormEvent } from "react";
import { data, Link, redirect, useRouteLoaderData } from "react-router";
import { CutoutPreview } from "~/components/cutout-preview";
import { PRIMARY_BUTTON, SECONDARY_BUTTON } from "~/components/form-field";
import { SchemaForm } from "~/components/schema-form";
import { SAVED_LIST_OF_API, SavedItemsPanel, SaveDrawing, useSavedList } from "~/components/saved-items";
import { SpeechVoicePicker } from "~/components/speech-voice-picker";
import { TranscriptOffline, TranscriptView } from "~/components/transcript-view";
import { fieldsBesideFiles } from "~/lib/demo-body";
import { ocrImageSource, readOcrOverlay, type OcrOverlay } from "~/lib/ocr-overlay";
import { titled } from "~/lib/page-meta";
import { initialSchemaFormState, parseInput, schemaFormReducer } from "~/lib/schema-form";
import { serverContext } from "~/lib/session.server";
import { useStoredApiKey } from "~/lib/stored-api-key";
import { NO_TRANSCRIPTION_ENGINE } from "~/lib/transcript";
import {
  DEMO_TIMEOUT_MS,
  progressLabel,
  sendWithProgress,
  withDeadline,
  type UploadProgress,
} from "~/lib/upload-request";
import type { loader as rootLoader } from "~/root";
import { lookupCatalogEntry } from "~workers/hosted/catalog";
import { operationDocs, operationForms } from "~workers/hosted/docs";
import { transcriptionEngineFor } from "~workers/providers/workers-ai/transcription";
import type { Route } from "./+types/route";

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const lookup = lookupCatalogEntry(params.slug);
  if (lookup.kind === "alias") throw redirect(`/${lookup.canonicalPath.split("/").pop()}/live-demo`, 301);
  if (lookup.kind === "missing") throw data(null, { status: 404 });
  const [docs, forms] = await Promise.all([
    operationDocs(lookup.entry.slug, new URL(request.url).origin),
    operationForms(lookup.entry.slug),
  ]);
  const operations = docs.map((operation) => {
    const fields = forms[operation.id] ?? [];
    return {
      id: operation.id,
      method: operation.method,
      path: operation.path,
      summary: operation.summary,
      inputSource: operation.inputSource,
      exampleInput: operation.exampleInput,
      fields,
      fileFields: fields.filter((field) => field.control === "file").map((field) => field.name),
    };
  });
  // Audio to Text has no engine without the AI binding: the page says so before any call.
  const transcriptionOffline =
    lookup.entry.slug === "audio-to-text" && !transcriptionEngineFor(serverContext(context).env as { AI?: Ai });
  return { api: lookup.entry, operations, transcriptionOffline };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: titled(`${loaderData?.api.name ?? "API"} live demo`) },
];

interface DemoResult {
  status: number;
  headers: [string, string][];
  kind: "json" | "image" | "audio" | "pdf" | "text";
  body: string;
  durationMs: number;
  /** An OCR answer's boxes over the image the call read (`image` is an object, data or https URL). */
  ocr?: { overlay: OcrOverlay; image: string };
}

const SHOWN_HEADERS = [
  "ratelimit",
  "ratelimit-policy",
  "x-ratelimit-limit",
  "x-ratelimit-remaining",
  "x-ratelimit-reset",
  "retry-after",
  "content-type",
  // Which engine made a document and how many pages it has (HTML to PDF, Image to Text).
  "x-engine",
  "x-page-count",
  // The voice that spoke (Text to Audio).
  "x-voice",
];

function fillPath(path: string, input: Record<string, unknown>): { path: string; rest: Record<string, unknown> } {
  const rest = { ...input };
  const filled = path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    const value = rest[name];
    delete rest[name];
    return encodeURIComponent(String(value ?? ""));
  });
  return { path: filled, rest };
}

function pathParameterNames(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z0-9_]+)/g)].flatMap((match) => (match[1] ? [match[1]] : []));
}

/**
 * The example input, with its path parameters taken from the last successful answer where it
 * has them: the shortener's stats and delete calls then act on the link just created, not on
 * the docs' example alias, which belongs to someone else.
 */
function inputFor(operation: { path: string; exampleInput: string }, carried: Record<string, unknown>): string {
  const names = pathParameterNames(operation.path).filter((name) => name in carried);
  if (names.length === 0) return operation.exampleInput;
  const example = JSON.parse(operation.exampleInput) as Record<string, unknown>;
  for (const name of names) example[name] = carried[name];
  return JSON.stringify(example, null, 2);
}

/** Top-level text and number members of a JSON object answer, the values a path can take. */
function carriableValues(answer: unknown): Record<string, unknown> {
  if (!answer || typeof answer !== "object" || Array.isArray(answer)) return {};
  return Object.fromEntries(
    Object.entries(answer).filter(([, value]) => typeof value === "string" || typeof value === "number"),
  );
}

export default function LiveDemo({ loaderData }: Route.ComponentProps) {
  const { api, operations } = loaderData;
  const viewer = useRouteLoaderData<typeof rootLoader>("root")?.viewer ?? null;
  const [apiKey, setApiKey] = useStoredApiKey();
  const [operationId, setOperationId] = useState(operations[0]?.id ?? "");
  const operation = useMemo(
    () => operations.find((candidate) => candidate.id === operationId),
    [operations, operationId],
  );
  const [carried, setCarried] = useState<Record<string, unknown>>({});
  // The JSON text (what is sent) and the form's drafts of it, edited from either side.
  const [form, dispatch] = useReducer(schemaFormReducer, undefined, () =>
    initialSchemaFormState(operation?.fields ?? [], operation?.exampleInput ?? "{}"),
  );
  const inputText = form.text;
  const setInputText = (text: string) => dispatch({ type: "json", text });
  const [files, setFiles] = useState<Record<string, File[]>>({});
  const [result, setResult] = useState<DemoResult | null>(null);
  const [error, setError] = useState("");
  const [sending, setSending] = useState(false);
  // Set while a multipart body is being sent; null once the server has it all (or for JSON calls).
  const [upload, setUpload] = useState<UploadProgress | null>(null);
  // The call behind the image on show, which 'Save' keeps; the textarea may have changed since.
  const [drawing, setDrawing] = useState<{ operationId: string; input: Record<string, unknown> } | null>(null);
  const savedListName = SAVED_LIST_OF_API[api.slug];
  const savedList = useSavedList(savedListName ?? "avatars", !!viewer && !!savedListName);

  // Only a change of call refills the input; `carried` is read, not watched, so a new answer
  // never overwrites what the user is typing. Choosing a call refills it in the same update as
  // the choice (chooseOperation): an effect runs only after the next paint with Preact, and the
  // old call's input would be on show, and sendable, until then. The effect covers the rest
  // (another API's demo reached by a link, which keeps this component) and skips a call whose
  // input is already on show.
  const shownOperation = useRef(operation);
  const refill = (next: typeof operation) => {
    shownOperation.current = next;
    dispatch({ type: "reset", fields: next?.fields ?? [], text: next ? inputFor(next, carried) : "{}" });
    setFiles({});
    setResult(null);
    setDrawing(null);
  };
  useEffect(() => {
    if (shownOperation.current !== operation) refill(operation);
  }, [operation]);
  const chooseOperation = (id: string) => {
    setOperationId(id);
    refill(operations.find((candidate) => candidate.id === id));
  };

  // Aborted when the page is left: a call still running (an upload, a slow PDF) stops with it.
  const leaving = useRef(new AbortController());
  useEffect(() => {
    leaving.current = new AbortController();
    return () => leaving.current.abort();
  }, []);

  useEffect(
    () => () => {
      if (result && result.kind !== "json" && result.kind !== "text") URL.revokeObjectURL(result.body);
      if (result?.ocr?.image.startsWith("blob:")) URL.revokeObjectURL(result.ocr.image);
    },
    [result],
  );

  if (!operation) {
    return (
      <div className="mx-auto max-w-3xl px-4 py-12">
        <h1 className="text-3xl font-bold">{api.name} live demo</h1>
        <p className="mt-4">This API's engine is not served here yet, so there is nothing to try.</p>
      </div>
    );
  }

  const carriedNames = pathParameterNames(operation.path).filter((name) => name in carried);

  const send = async (event: FormEvent) => {
    event.preventDefault();
    setError("");
    const parsed = parseInput(inputText);
    if (!parsed.ok) {
      setError(parsed.message);
      return;
    }
    // A field whose draft is not a value left the JSON as it was: sending that would surprise.
    const unfinished = Object.keys(form.fieldErrors);
    if (unfinished.length > 0) {
      setError(`Correct ${unfinished.join(", ")} in the form first: the JSON does not hold what it shows.`);
      return;
    }
    const input = parsed.input;
    const { path, rest } = fillPath(operation.path, input);
    const headers: Record<string, string> = { "x-api-key": apiKey };
    let url = path;
    let body: BodyInit | undefined;
    const chosenFiles = Object.entries(files).filter(([, list]) => list.length > 0);
    if (operation.method !== "POST") {
      const query = new URLSearchParams(
        Object.entries(rest).map(([key, value]) => [key, typeof value === "string" ? value : JSON.stringify(value)]),
      );
      if ([...query].length) url += `?${query}`;
    } else if (chosenFiles.length > 0) {
      const form = new FormData();
      // The chosen file replaces the example's own copy (remove.bg's image_file_b64 beside image_file).
      const besides = fieldsBesideFiles(
        rest,
        chosenFiles.map(([field]) => field),
        operation.fileFields,
      );
      for (const [key, value] of Object.entries(besides))
        form.append(key, typeof value === "string" ? value : JSON.stringify(value));
      for (const [field, list] of chosenFiles) for (const file of list) form.append(field, file);
      body = form;
    } else {
      headers["content-type"] = "application/json";
      body = JSON.stringify(rest);
    }
    setSending(true);
    const started = performance.now();
    const deadline = withDeadline(leaving.current.signal, DEMO_TIMEOUT_MS);
    const { signal } = deadline;
    try {
      // A file upload goes through XMLHttpRequest, the one browser API that reports upload progress.
      const response =
        body instanceof FormData
          ? await sendWithProgress(url, { method: operation.method, headers, body, signal }, setUpload)
          : await fetch(url, { method: operation.method, headers, body, signal });
      setUpload(null);
      const type = response.headers.get("content-type") ?? "";
      const shown = SHOWN_HEADERS.flatMap((name) => {
        const value = response.headers.get(name);
        return value ? [[name, value] as [string, string]] : [];
      });
      const kind: DemoResult["kind"] = type.includes("json")
        ? "json"
        : type.startsWith("image/")
          ? "image"
          : type.startsWith("audio/")
            ? "audio"
            : type.includes("pdf")
              ? "pdf"
              : "text";
      const answer: unknown = kind === "json" ? await response.json() : undefined;
      if (response.ok) setCarried((current) => ({ ...current, ...carriableValues(answer) }));
      setDrawing(
        response.ok && kind === "image" && chosenFiles.length === 0 ? { operationId: operation.id, input: rest } : null,
      );
      const content =
        kind === "json"
          ? JSON.stringify(answer, null, 2)
          : kind === "text"
            ? await response.text()
            : URL.createObjectURL(
                // The frame shows a PDF by its type: the blob is typed whatever the answer said.
                kind === "pdf" ? new Blob([await response.blob()], { type: "application/pdf" }) : await response.blob(),
              );
      const overlay = response.ok ? readOcrOverlay(answer) : null;
      const uploaded = chosenFiles.flatMap(([, list]) => list).find((file) => file.type.startsWith("image/"));
      const image = overlay ? ocrImageSource(rest, uploaded ? URL.createObjectURL(uploaded) : null) : null;
      setResult({
        status: response.status,
        headers: shown,
        kind,
        body: content,
        durationMs: Math.round(performance.now() - started),
        ...(overlay && image ? { ocr: { overlay, image } } : {}),
      });
    } catch (caught) {
      if (leaving.current.signal.aborted) return;
      setError(
        signal.aborted && signal.reason instanceof DOMException && signal.reason.name === "TimeoutError"
          ? `No answer after ${DEMO_TIMEOUT_MS / 1000} seconds, so the demo stopped waiting. Try a smaller file or a simpler page.`
          : caught instanceof DOMException && caught.name === "AbortError"
            ? "The request was cancelled."
            : "The request did not reach the server. Check your connection and try again.",
      );
    } finally {
      deadline.clear();
      if (!leaving.current.signal.aborted) {
        setSending(false);
        setUpload(null);
      }
    }
  };

  return (
    <div className="mx-auto max-w-5xl px-4 py-12">
      <p className="text-sm text-slate-500">
        <Link to={`/docs/api/${api.slug}`} className="hover:underline">
          {api.name} docs
        </Link>{" "}
        / live demo
      </p>
      <h1 className="mt-2 text-3xl font-bold">{api.name} live demo</h1>
      {!apiKey && (
        <p
          role="note"
          className="mt-4 rounded-md bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200"
        >
          {viewer ? (
            <>
              Paste one of your keys below, or{" "}
              <Link to="/user/apikey" className="underline">
                create one
              </Link>{" "}
              (this browser remembers it).
            </>
          ) : (
            <>
              <Link to="/user/authenticate" className="underline">
                Sign in
              </Link>{" "}
              and create a key to try this API: calls count against your plan.
            </>
          )}
        </p>
      )}
      <form onSubmit={send} className="mt-6 grid gap-6 lg:grid-cols-2">
        <div className="min-w-0 space-y-4">
          <div>
            <label htmlFor="demo-key" className="block text-sm font-medium">
              API key
            </label>
            <input
              id="demo-key"
              type="password"
              autoComplete="off"
              value={apiKey}
              onChange={(event) => setApiKey(event.target.value.trim())}
              placeholder="pk_live_…"
              className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2 font-mono text-sm dark:border-slate-700 dark:bg-slate-900"
            />
          </div>
          {operations.length > 1 && (
            <div>
              <label htmlFor="demo-operation" className="block text-sm font-medium">
                Call
              </label>
              <select
                id="demo-operation"
                value={operationId}
                onChange={(event) => chooseOperation(event.target.value)}
                className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-900"
              >
                {operations.map((candidate) => (
                  <option key={candidate.id} value={candidate.id}>
                    {candidate.method} {candidate.path} — {candidate.summary}
                  </option>
                ))}
              </select>
              {carriedNames.length > 0 && (
                <p className="mt-1 text-xs text-slate-500">
                  {carriedNames.map((name, index) => (
                    <span key={name}>
                      {index > 0 && ", "}
                      <code>{name}</code>
                    </span>
                  ))}{" "}
                  comes from your last answer.
                </p>
              )}
            </div>
          )}
          <section
            aria-labelledby="demo-form-heading"
            className="rounded-xl border border-slate-200 p-4 dark:border-slate-800"
          >
            <h2 id="demo-form-heading" className="text-lg font-semibold">
              Form
            </h2>
            <p className="mb-3 text-xs text-slate-500 dark:text-slate-400">
              Built from the call's schema; each change is written into the JSON.
              {operation.method === "POST" ? "" : " A GET sends them as the query."} An empty field is left out.
            </p>
            {form.jsonError !== null && (
              <p className="mb-3 rounded-md bg-amber-50 p-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200">
                The form waits for the JSON to parse again, and keeps its values meanwhile.
              </p>
            )}
            <SchemaForm
              key={operation.id}
              fields={form.fields}
              drafts={form.drafts}
              fieldErrors={form.fieldErrors}
              input={form.input}
              onDraft={(name, draft) => dispatch({ type: "field", name, draft })}
              files={files}
              onFiles={(field, chosen) => setFiles((current) => ({ ...current, [field]: chosen }))}
              disabled={form.jsonError !== null}
            />
          </section>
        </div>
        <div className="min-w-0 space-y-4">
          <div>
            <label htmlFor="demo-input" className="block text-sm font-medium">
              Input (JSON{operation.method === "POST" ? " body" : ": query and path parameters"})
            </label>
            <textarea
              id="demo-input"
              rows={12}
              spellCheck={false}
              value={inputText}
              aria-invalid={form.jsonError !== null || undefined}
              aria-describedby={form.jsonError !== null ? "demo-input-error" : undefined}
              onChange={(event) => setInputText(event.target.value)}
              className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2 font-mono text-xs aria-[invalid=true]:border-red-500 dark:border-slate-700 dark:bg-slate-900"
            />
            {form.jsonError !== null && (
              <div id="demo-input-error" className="mt-1 space-y-2 text-sm text-red-600 dark:text-red-400">
                <p>{form.jsonError}</p>
                <button type="button" onClick={() => dispatch({ type: "rewrite" })} className={SECONDARY_BUTTON}>
                  Write the JSON again from the form
                </button>
              </div>
            )}
          </div>
          {api.slug === "text-to-speech" && operation.id === "speakText" && (
            <SpeechVoicePicker apiKey={apiKey} inputText={inputText} onInput={setInputText} />
          )}
          {error && (
            <p role="alert" className="text-sm text-red-600">
              {error}
            </p>
          )}
          <button type="submit" disabled={sending || !apiKey} className={PRIMARY_BUTTON}>
            {sending ? "Calling…" : `Send ${operation.method}`}
          </button>
          {sending && upload && (
            <div className="text-sm">
              <label htmlFor="demo-upload-progress" className="block">
                {upload.total !== null && upload.loaded >= upload.total
                  ? "Uploaded; waiting for the answer…"
                  : `Uploading… ${progressLabel(upload)}`}
              </label>
              <progress
                id="demo-upload-progress"
                max={upload.total ?? undefined}
                value={upload.total !== null ? upload.loaded : undefined}
                className="mt-1 w-full"
              />
            </div>
          )}
          <section aria-labelledby="demo-result" aria-live="polite" className="min-w-0">
            <h2 id="demo-result" className="text-lg font-semibold">
              Result
            </h2>
            {!result && <p className="mt-2 text-sm text-slate-500">Send the call to see the answer here.</p>}
            {!result && loaderData.transcriptionOffline && <TranscriptOffline detail={NO_TRANSCRIPTION_ENGINE} />}
            {result && (
              <div className="mt-2 space-y-3">
                <p className="text-sm">
                  Status <strong data-testid="demo-status">{result.status}</strong> in {result.durationMs} ms
                </p>
                <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
                  {result.headers.map(([name, value]) => (
                    <div key={name} className="contents">
                      <dt className="font-mono text-slate-500">{name}</dt>
                      <dd className="break-all font-mono">{value}</dd>
                    </div>
                  ))}
                </dl>
                {result.kind === "image" && api.slug === "removebg" && <CutoutPreview src={result.body} />}
                {result.kind === "image" && api.slug !== "removebg" && (
                  <img
                    src={result.body}
                    alt="The API's answer"
                    className="max-h-96 max-w-full rounded border border-slate-200 dark:border-slate-800"
                  />
                )}
                {result.kind === "image" && savedListName && (
                  <SaveDrawing state={savedList} signedIn={!!viewer} drawing={drawing} />
                )}
                {result.kind === "audio" && <audio controls src={result.body} className="w-full" />}
                {result.kind === "pdf" && (
                  <>
                    <iframe
                      src={result.body}
                      title="The PDF the API answered"
                      className="h-[32rem] w-full rounded border border-slate-200 dark:border-slate-800"
                    />
                    <a href={result.body} target="_blank" rel="noreferrer" className="text-brand-600 underline">
                      Open the PDF in a new tab
                    </a>
                  </>
                )}
                {result.ocr && <OcrBoxes overlay={result.ocr.overlay} image={result.ocr.image} />}
                {api.slug === "audio-to-text" && result.kind === "json" && (
                  <TranscriptView status={result.status} body={result.body} />
                )}
                {(result.kind === "json" || result.kind === "text") && (
                  <pre className="max-h-[32rem] overflow-auto rounded-lg bg-slate-100 p-3 text-xs dark:bg-slate-900">
                    <code>{result.body}</code>
                  </pre>
                )}
              </div>
            )}
          </section>
        </div>
      </form>
      {savedListName && (
        <div className="mt-10">
          {viewer ? (
            <SavedItemsPanel state={savedList} />
          ) : (
            <section className="rounded-xl border border-slate-200 p-5 dark:border-slate-800">
              <SaveDrawing state={savedList} signedIn={false} drawing={null} />
            </section>
          )}
        </div>
      )}
    </div>
  );
}

/**
 * The image an OCR call read with its lines (and words, when asked) outlined. The SVG's viewBox
 * is the image's size in pixels, the unit of the answer's boxes, so the boxes scale with the
 * picture at any displayed size; hovering a line shows its text and confidence.
 */
function OcrBoxes({ overlay, image }: { overlay: OcrOverlay; image: string }) {
  const words = overlay.lines.reduce((count, line) => count + line.words.length, 0);
  return (
    <figure className="space-y-1">
      <svg
        viewBox={`0 0 ${overlay.width} ${overlay.height}`}
        role="img"
        aria-label={`The image read, with ${overlay.lines.length} text line${overlay.lines.length === 1 ? "" : "s"} outlined`}
        data-testid="ocr-overlay"
        className="max-h-[32rem] w-full rounded border border-slate-200 dark:border-slate-800"
      >
        <image href={image} x={0} y={0} width={overlay.width} height={overlay.height} />
        {overlay.lines.map((line, index) => (
          <g key={index} data-testid="ocr-line">
            <title>{`${line.text} (${Math.round(line.confidence)}%)`}</title>
            <rect
              {...line.box}
              fill="rgb(37 99 235 / 0.12)"
              stroke="rgb(37 99 235)"
              strokeWidth={2}
              vectorEffect="non-scaling-stroke"
            />
            {line.words.map((word, wordIndex) => (
              <rect
                key={wordIndex}
                {...word.box}
                fill="none"
                stroke="rgb(234 88 12)"
                strokeWidth={1}
                vectorEffect="non-scaling-stroke"
              />
            ))}
          </g>
        ))}
      </svg>
      <figcaption className="text-xs text-slate-500">
        Blue: each line's box{words > 0 ? "; orange: each word's" : " (ask wordBoxes: true for each word's too)"}. Hover
        a line for its text.
      </figcaption>
    </figure>
  );
}
