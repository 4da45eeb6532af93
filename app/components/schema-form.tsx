/**
 * The live demo's form: one labelled control per field of the call's input, built from its
 * schema (app/lib/schema-form.ts; the fields come from workers/hosted/docs.ts), each with its
 * description under it. It edits the JSON beside it through the reducer there; the route owns
 * the state, so sending reads the one JSON text whichever side was edited last.
 */
import type { ReactNode } from "react";
import { InlineMarkup } from "~/components/inline-markup";
import { optionKey, type Draft, type FormField } from "~/lib/schema-form";

const CONTROL =
  "mt-1 w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm aria-[invalid=true]:border-red-500 disabled:opacity-60 dark:border-slate-700 dark:bg-slate-900";

interface SchemaFormProps {
  fields: readonly FormField[];
  drafts: Record<string, Draft>;
  fieldErrors: Record<string, string>;
  /** The input the form shows: a file field with a value here has one in the JSON already. */
  input: Record<string, unknown>;
  onDraft(name: string, draft: Draft): void;
  files: Record<string, File[]>;
  onFiles(name: string, files: File[]): void;
  /** Set while the JSON does not parse: the form waits, keeping its values. */
  disabled: boolean;
}

/** Ids of the fields' controls; the file pickers keep the ids the demo always gave them. */
export function controlId(field: Pick<FormField, "name" | "control">): string {
  return field.control === "file" ? `demo-file-${field.name}` : `demo-field-${field.name}`;
}

export function SchemaForm({ fields, drafts, fieldErrors, input, onDraft, files, onFiles, disabled }: SchemaFormProps) {
  if (fields.length === 0)
    return <p className="mt-2 text-sm text-slate-500 dark:text-slate-400">This call takes no input.</p>;
  return (
    <fieldset disabled={disabled} className="min-w-0 space-y-4">
      <legend className="sr-only">Fields of the input</legend>
      {fields.map((field) => (
        <FieldRow
          key={field.name}
          field={field}
          draft={drafts[field.name]}
          error={fieldErrors[field.name]}
          inJson={input[field.name] !== undefined}
          onDraft={(draft) => onDraft(field.name, draft)}
          files={files[field.name] ?? []}
          onFiles={(chosen) => onFiles(field.name, chosen)}
        />
      ))}
    </fieldset>
  );
}

interface FieldRowProps {
  field: FormField;
  draft: Draft | undefined;
  error: string | undefined;
  inJson: boolean;
  onDraft(draft: Draft): void;
  files: File[];
  onFiles(files: File[]): void;
}

function FieldRow({ field, draft, error, inJson, onDraft, files, onFiles }: FieldRowProps) {
  const id = controlId(field);
  const descriptionId = `${id}-description`;
  const errorId = `${id}-error`;
  const describedBy = [field.description || field.control === "file" ? descriptionId : null, error ? errorId : null]
    .filter(Boolean)
    .join(" ");
  const common = {
    id,
    "aria-describedby": describedBy || undefined,
    "aria-invalid": error ? true : undefined,
    "aria-required": field.required || undefined,
  };
  const text = typeof draft === "string" ? draft : "";
  const placeholder = field.default !== undefined ? `default ${JSON.stringify(field.default)}` : undefined;
  const name = (
    <>
      <code>{field.name}</code>
      {field.required && <span className="font-normal text-red-700 dark:text-red-400"> (required)</span>}
      {field.location === "path" && (
        <span className="font-normal text-slate-500 dark:text-slate-400"> (in the path)</span>
      )}
    </>
  );

  let control: ReactNode;
  let label: ReactNode = (
    <label htmlFor={id} className="block text-sm font-medium">
      {name}
    </label>
  );
  switch (field.control) {
    case "checkbox":
      label = null;
      control = (
        <div className="flex items-center gap-2">
          <input
            {...common}
            type="checkbox"
            checked={draft === true}
            onChange={(event) => onDraft(event.target.checked)}
            className="h-4 w-4 rounded border-slate-300 dark:border-slate-700"
          />
          <label htmlFor={id} className="text-sm font-medium">
            {name}
          </label>
        </div>
      );
      break;
    case "select": {
      const options = field.options ?? [];
      const known = options.some((option) => optionKey(option) === text);
      control = (
        <select {...common} value={text} onChange={(event) => onDraft(event.target.value)} className={CONTROL}>
          {/* Without a default, leaving the field out is a choice of its own. */}
          {(field.default === undefined || text === "") && <option value="">— not set —</option>}
          {text !== "" && !known && <option value={text}>{text} (not one of the options)</option>}
          {options.map((option) => (
            <option key={optionKey(option)} value={optionKey(option)}>
              {String(option)}
            </option>
          ))}
        </select>
      );
      break;
    }
    case "choices": {
      const chosen = Array.isArray(draft) ? draft : [];
      label = null;
      control = (
        <fieldset aria-describedby={describedBy || undefined}>
          <legend className="text-sm font-medium">{name}</legend>
          <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
            {(field.options ?? []).map((option) => {
              const key = optionKey(option);
              return (
                <label key={key} className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    checked={chosen.includes(key)}
                    onChange={(event) =>
                      onDraft(
                        (field.options ?? [])
                          .map(optionKey)
                          .filter((each) => (each === key ? event.target.checked : chosen.includes(each))),
                      )
                    }
                    className="h-4 w-4 rounded border-slate-300 dark:border-slate-700"
                  />
                  {String(option)}
                </label>
              );
            })}
          </div>
        </fieldset>
      );
      break;
    }
    case "number":
      control = (
        <input
          {...common}
          type="number"
          inputMode="decimal"
          min={field.min}
          max={field.max}
          step={field.step ?? "any"}
          value={text}
          placeholder={placeholder}
          onChange={(event) => onDraft(event.target.value)}
          className={CONTROL}
        />
      );
      break;
    case "textarea":
    case "lines":
    case "json":
      control = (
        <textarea
          {...common}
          rows={field.control === "json" ? 3 : field.control === "lines" ? 4 : 5}
          spellCheck={field.control === "textarea" ? undefined : false}
          value={text}
          placeholder={field.control === "lines" ? "One a line" : placeholder}
          onChange={(event) => onDraft(event.target.value)}
          className={`${CONTROL} ${field.control === "textarea" ? "" : "font-mono text-xs"}`}
        />
      );
      break;
    case "file":
      label = (
        <label htmlFor={id} className="block text-sm font-medium">
          File for <code>{field.name}</code>
          {field.required && <span className="font-normal text-red-700 dark:text-red-400"> (required)</span>}
        </label>
      );
      control = (
        <input
          {...common}
          type="file"
          multiple={field.multiple}
          onChange={(event) => onFiles([...(event.target.files ?? [])])}
          className="mt-1 block w-full text-sm file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium hover:file:bg-slate-100 dark:file:border-slate-700 dark:file:bg-slate-900 dark:file:text-slate-100 dark:hover:file:bg-slate-800"
        />
      );
      break;
    default:
      control = (
        <input
          {...common}
          type="text"
          value={text}
          placeholder={placeholder}
          onChange={(event) => onDraft(event.target.value)}
          className={CONTROL}
        />
      );
  }

  return (
    <div>
      {label}
      {control}
      {/* slate-600, not 500: the description's `code` spans sit on slate-100, where 500 falls short of 4.5:1. */}
      {(field.description || field.control === "file") && (
        <p id={descriptionId} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
          <InlineMarkup text={field.description} />
          {field.control === "file" && (
            <>
              {field.description ? ". " : ""}
              {files.length > 0
                ? `Sends the call as multipart with ${files.map((file) => file.name).join(", ")}${inJson ? ", in place of the JSON's value" : ""}.`
                : `A file chosen here is sent as multipart${inJson ? ", in place of the JSON's value" : ""}.`}
            </>
          )}
        </p>
      )}
      {error && (
        <p id={errorId} className="mt-1 text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </div>
  );
}
