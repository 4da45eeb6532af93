/**
 * The prompt box of the admin's prompt-to-image page, with the server's message beside it when
 * the API refused the prompt (422 naming `input_prompts`): the box is marked invalid and
 * described by that message, as every form field of the site is.
 */
import { ApiError } from "~/lib/api-client";

/** The server's words about the prompt in a refusal, or null when the refusal is not about it. */
export function promptErrorOf(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.status !== 422) return null;
  const message = (error.body as { errors?: Record<string, unknown> } | undefined)?.errors?.input_prompts;
  return typeof message === "string" ? message : null;
}

export function PromptField({
  value,
  onChange,
  maxLength,
  error,
}: {
  value: string;
  onChange: (value: string) => void;
  maxLength: number;
  error: string | null;
}) {
  return (
    <>
      <label htmlFor="prompt" className="mt-4 block text-sm font-medium">
        Prompt
      </label>
      <textarea
        id="prompt"
        rows={4}
        value={value}
        maxLength={maxLength}
        onChange={(event) => onChange(event.target.value)}
        placeholder="A lighthouse on a cliff at dusk"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? "prompt-error" : undefined}
        className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2 text-sm aria-[invalid=true]:border-red-500 dark:border-slate-700 dark:bg-slate-900"
      />
      {error && (
        <p id="prompt-error" className="mt-1 text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </>
  );
}
