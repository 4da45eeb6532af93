/** A labelled input with its error message beside it, wired for screen readers. */
import type { InputHTMLAttributes } from "react";
import { firstErrorPerField, type FieldIssue } from "~/lib/field-errors";

interface FormFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  name: string;
  label: string;
  error?: string;
  hint?: string;
}

export function FormField({ name, label, error, hint, id, ...input }: FormFieldProps) {
  const fieldId = id ?? `field-${name}`;
  const describedBy = [error ? `${fieldId}-error` : null, hint ? `${fieldId}-hint` : null].filter(Boolean).join(" ");
  return (
    <div>
      <label htmlFor={fieldId} className="block text-sm font-medium">
        {label}
      </label>
      <input
        id={fieldId}
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        className="mt-1 w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm aria-[invalid=true]:border-red-500 dark:border-slate-700 dark:bg-slate-900"
        {...input}
      />
      {hint && !error && (
        <p id={`${fieldId}-hint`} className="mt-1 text-xs text-slate-500 dark:text-slate-400">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${fieldId}-error`} className="mt-1 text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}

export const PRIMARY_BUTTON =
  "rounded-md bg-brand-600 px-5 py-2.5 text-sm font-medium text-white hover:bg-brand-700 disabled:opacity-60";
export const SECONDARY_BUTTON =
  "rounded-md border border-slate-300 px-4 py-2 text-sm font-medium hover:bg-slate-100 disabled:opacity-60 dark:border-slate-700 dark:hover:bg-slate-800";
export const DANGER_BUTTON =
  "rounded-md bg-red-600 px-4 py-2 text-sm font-medium text-white hover:bg-red-700 disabled:opacity-60";

/** Field errors of a zod failure for a page's form: the first message per field, the form's own under `form`. */
export function fieldErrors(issues: readonly FieldIssue[]): Record<string, string> {
  return firstErrorPerField(issues, "form");
}
