/**
 * Admin: AI prompt-to-image (docs/product.md#prompt-to-image, decision 063): a prompt, 'Anime' or
 * 'AI Human', the picture made with a download link, the admin's earlier pictures, and the
 * plans' limits. Where the environment has no image engine (no `AI` binding: local development)
 * the loader brings the server's own sentence saying so, and the buttons are off with that
 * sentence as their description, before anyone clicks.
 */
import { useRef, useState, type FormEvent } from "react";
import { Link, useRevalidator } from "react-router";
import { PRIMARY_BUTTON, SECONDARY_BUTTON } from "~/components/form-field";
import { apiRequest, serverMessage } from "~/lib/api-client";
import { pageMeta } from "~/lib/page-meta";
import { requireAdmin, serverContext } from "~/lib/session.server";
import {
  AI_IMAGE_LIMITS,
  AI_IMAGE_STYLES,
  aiImageEngineFor,
  aiImageUsage,
  linkAiImage,
  listAiImages,
  PROMPT_MAX_CHARS,
  type AiImageBindings,
  type AiImageStyle,
  type LinkedAiImage,
} from "~workers/platform/ai-images";
import type { Route } from "./+types/route";
import { shownHistory, withOlderPage, type HistoryPage, type OlderImages } from "./history";
import { PromptField, promptErrorOf } from "./prompt-field";

export const meta = () =>
  pageMeta(
    "AI prompt to image",
    "The admin's image generation: a prompt in two styles, the plans' limits and past images.",
    {
      noindex: true,
    },
  );

export async function loader({ request, context }: Route.LoaderArgs) {
  // Checked here as well as in the admin layout: a single-fetch request can run this loader alone.
  const { user } = await requireAdmin(request, context);
  const env = serverContext(context).env as Env & AiImageBindings;
  const engine = aiImageEngineFor(env);
  const [usage, history] = await Promise.all([
    aiImageUsage(env.DB, user.id, user),
    env.AI_IMAGES ? listAiImages(env.AI_IMAGES, user.id) : { images: [], next: null },
  ]);
  return {
    limits: AI_IMAGE_LIMITS,
    styles: (Object.keys(AI_IMAGE_STYLES) as AiImageStyle[]).map((type) => ({
      type,
      label: AI_IMAGE_STYLES[type].label,
    })),
    engine: engine.available ? { available: true as const } : { available: false as const, message: engine.message },
    usage,
    images: history.images.map(linkAiImage),
    next: history.next,
    promptMaxChars: PROMPT_MAX_CHARS,
  };
}

const PLAN_NOTES = { free: "Standard queue", standard: "Priority over Free", premium: "Highest priority" } as const;

// One rendering on the server and in the browser, whatever the browser's zone.
const WHEN = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

type Generated = LinkedAiImage & { image: string };

export default function PromptToImage({ loaderData }: Route.ComponentProps) {
  const { engine, usage, styles } = loaderData;
  const styleLabel = Object.fromEntries(styles.map((style) => [style.type, style.label])) as Record<
    AiImageStyle,
    string
  >;
  const revalidator = useRevalidator();
  const [prompt, setPrompt] = useState("");
  const [busy, setBusy] = useState(false);
  const [promptError, setPromptError] = useState<string | null>(null);
  const [generated, setGenerated] = useState<Generated | null>(null);
  const [older, setOlder] = useState<OlderImages | null>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  // Set at once, unlike state: a second click before the next render sends nothing.
  const loadingRef = useRef(false);
  const first: HistoryPage = { images: loaderData.images, next: loaderData.next };
  const history = shownHistory(first, older);

  const generate = async (type: AiImageStyle, event?: FormEvent) => {
    event?.preventDefault();
    setBusy(true);
    setPromptError(null);
    try {
      const answer = await apiRequest<Generated & { message: string }>("/ai/prompt-to-image", {
        method: "POST",
        options: { input_prompts: prompt, type },
        loader: true,
      });
      if (answer) {
        setGenerated(answer);
        // The new picture heads the list, and today's count moves.
        void revalidator.revalidate();
      }
    } catch (error) {
      const fieldError = promptErrorOf(error);
      if (fieldError) setPromptError(fieldError);
      window.alert(`Error: ${serverMessage(error) ?? fieldError ?? "the image could not be generated"}`);
    } finally {
      setBusy(false);
    }
  };

  const loadMore = async () => {
    const after = history.next;
    if (!after || loadingRef.current) return;
    loadingRef.current = true;
    setLoadingOlder(true);
    try {
      const page = await apiRequest<HistoryPage>("/ai/images", { options: { after } });
      if (page) setOlder((shown) => withOlderPage(first, shown, after, page));
    } catch (error) {
      window.alert(`Error: ${serverMessage(error) ?? "the older images could not be listed"}`);
    } finally {
      loadingRef.current = false;
      setLoadingOlder(false);
    }
  };

  const { images } = history;
  const describedBy = [promptError ? "prompt-error" : null, engine.available ? null : "engine-status"]
    .filter(Boolean)
    .join(" ");

  return (
    <div className="grid gap-8 lg:grid-cols-[2fr_1fr]">
      <section aria-labelledby="prompt-heading">
        <h1 id="prompt-heading" className="text-2xl font-bold">
          AI prompt to image
        </h1>
        {!engine.available && (
          <p
            id="engine-status"
            role="status"
            className="mt-4 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
          >
            {engine.message} The Anime and AI Human buttons are off until it has one.
          </p>
        )}
        <p className="mt-4 text-sm text-slate-600 dark:text-slate-400" data-testid="ai-image-usage">
          <span className="capitalize">{usage.planId}</span> plan: {usage.today} of {usage.perDay} today,{" "}
          {usage.thisMonth} of {usage.perMonth} this month.
        </p>
        <PromptField value={prompt} onChange={setPrompt} maxLength={loaderData.promptMaxChars} error={promptError} />
        <div className="mt-3 flex gap-2">
          {styles.map((style, index) => (
            <button
              key={style.type}
              type="button"
              disabled={busy || !engine.available}
              aria-describedby={describedBy || undefined}
              onClick={() => generate(style.type)}
              className={index === 0 ? PRIMARY_BUTTON : SECONDARY_BUTTON}
            >
              {style.label}
            </button>
          ))}
        </div>
        {generated && (
          <figure className="mt-6">
            <img src={generated.image} alt={`Generated from: ${generated.prompt}`} className="max-w-full rounded-xl" />
            <figcaption className="mt-2 flex items-center gap-3 text-sm">
              <a href={generated.downloadUrl} download={generated.filename} className={PRIMARY_BUTTON}>
                Download
              </a>
              <span className="text-slate-500">{generated.filename}</span>
            </figcaption>
          </figure>
        )}

        <section aria-labelledby="history-heading" className="mt-10">
          <h2 id="history-heading" className="text-lg font-semibold">
            Your images
          </h2>
          {images.length === 0 ? (
            <p className="mt-2 text-sm text-slate-500">No images yet.</p>
          ) : (
            <ul aria-label="Your images" className="mt-3 grid gap-4 sm:grid-cols-2">
              {images.map((image) => (
                <li key={image.id} className="rounded-xl border border-slate-200 p-3 dark:border-slate-800">
                  <img
                    src={image.url}
                    alt={image.prompt}
                    loading="lazy"
                    width={512}
                    height={512}
                    className="aspect-square w-full rounded-lg object-cover"
                  />
                  <p className="mt-2 text-sm">{image.prompt}</p>
                  <p className="mt-1 text-xs text-slate-500">
                    {styleLabel[image.style]} ·{" "}
                    <time dateTime={new Date(image.createdAt).toISOString()}>{WHEN.format(image.createdAt)} UTC</time>
                  </p>
                  <a
                    href={image.downloadUrl}
                    download={image.filename}
                    className="mt-2 inline-block text-sm font-medium text-brand-700 underline dark:text-brand-500"
                  >
                    Download<span className="sr-only"> {image.filename}</span>
                  </a>
                </li>
              ))}
            </ul>
          )}
          {history.next && (
            <button type="button" onClick={loadMore} disabled={loadingOlder} className={`${SECONDARY_BUTTON} mt-4`}>
              Show older images
            </button>
          )}
        </section>
      </section>
      <aside aria-labelledby="plans-heading" className="rounded-xl border border-slate-200 p-5 dark:border-slate-800">
        <h2 id="plans-heading" className="text-lg font-semibold">
          Plans
        </h2>
        <ul className="mt-3 space-y-3 text-sm">
          {(["free", "standard", "premium"] as const).map((plan) => (
            <li key={plan}>
              <strong className="capitalize">{plan}</strong>: {loaderData.limits[plan].perMonth} a month,{" "}
              {loaderData.limits[plan].perDay} a day. <span className="text-slate-500">{PLAN_NOTES[plan]}</span>
            </li>
          ))}
        </ul>
        <Link to="/user/subscription" className={`${PRIMARY_BUTTON} mt-4 inline-block`}>
          Goto Pricing Page
        </Link>
      </aside>
    </div>
  );
}
