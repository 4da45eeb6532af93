/**
 * Admin: AI prompt-to-image (docs/product.md#prompt-to-image): a prompt, 'Anime' or 'AI Human', and the
 * plans' limits.
 */
import { useState, type FormEvent } from "react";
import { Link } from "react-router";
import { PRIMARY_BUTTON, SECONDARY_BUTTON } from "~/components/form-field";
import { apiRequest, serverMessage } from "~/lib/api-client";
import { titled } from "~/lib/page-meta";
import { requireAdmin } from "~/lib/session.server";
import { AI_IMAGE_LIMITS } from "~workers/platform/ai-images";
import type { Route } from "./+types/route";

export const meta = () => [{ title: titled("AI prompt to image") }];

export async function loader({ request, context }: Route.LoaderArgs) {
  // Checked here as well as in the admin layout: a single-fetch request can run this loader alone.
  await requireAdmin(request, context);
  return { limits: AI_IMAGE_LIMITS };
}

const PLAN_NOTES = { free: "Standard queue", standard: "Priority over Free", premium: "Highest priority" } as const;

export default function PromptToImage({ loaderData }: Route.ComponentProps) {
  const [prompt, setPrompt] = useState("");
  const [busy, setBusy] = useState(false);
  const [image, setImage] = useState<string | null>(null);

  const generate = async (type: "anime" | "human", event?: FormEvent) => {
    event?.preventDefault();
    setBusy(true);
    try {
      const answer = await apiRequest<{ message: string; image: string }>("/ai/prompt-to-image", {
        method: "POST",
        options: { input_prompts: prompt, type },
        loader: true,
      });
      if (answer) setImage(answer.image);
    } catch (error) {
      window.alert(`Error: ${serverMessage(error) ?? "the image could not be generated"}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="grid gap-8 lg:grid-cols-[2fr_1fr]">
      <section aria-labelledby="prompt-heading">
        <h1 id="prompt-heading" className="text-2xl font-bold">
          AI prompt to image
        </h1>
        <label htmlFor="prompt" className="mt-4 block text-sm font-medium">
          Prompt
        </label>
        <textarea
          id="prompt"
          rows={4}
          value={prompt}
          onChange={(event) => setPrompt(event.target.value)}
          placeholder="A lighthouse on a cliff at dusk"
          className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-900"
        />
        <div className="mt-3 flex gap-2">
          <button type="button" disabled={busy} onClick={() => generate("anime")} className={PRIMARY_BUTTON}>
            Anime
          </button>
          <button type="button" disabled={busy} onClick={() => generate("human")} className={SECONDARY_BUTTON}>
            AI Human
          </button>
        </div>
        {image && <img src={image} alt={`Generated from: ${prompt}`} className="mt-6 max-w-full rounded-xl" />}
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
