/**
 * 'Report a Bug' (docs/product.md#report-a-bug): each field's message beside it, the button disabled while
 * sending, the form reset on success, and nothing typed is lost on failure.
 */
import { useId, useState, type FormEvent } from "react";
import { toast } from "~/lib/toast";
import { apiRequest, serverMessage } from "~/lib/api-client";
import { checkContact, type ContactErrors, type ContactInput } from "~/lib/contact-rules";

const EMPTY: ContactInput = { username: "", email: "", message: "" };

interface ContactAnswer {
  success: number;
  message?: string;
  errors?: ContactErrors;
}

export function ReportBugForm() {
  const [values, setValues] = useState<ContactInput>(EMPTY);
  const [errors, setErrors] = useState<ContactErrors>({});
  const [sending, setSending] = useState(false);
  const id = useId();

  const update = (field: keyof ContactInput, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = checkContact(values);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      const firstField = (["username", "email", "message"] as const).find((field) => found[field]);
      document.getElementById(`${id}-${firstField}`)?.focus();
      return;
    }
    setSending(true);
    try {
      const answer = await apiRequest<ContactAnswer>("/contact", { method: "POST", options: values });
      if (!answer) return;
      if (answer.success === 1) {
        toast.success(answer.message || "We will get back to you soon");
        setValues(EMPTY);
      } else {
        toast.error(answer.message || "Something went wrong...");
      }
    } catch (error) {
      toast.error(serverMessage(error) || "Something went wrong...");
    } finally {
      setSending(false);
    }
  };

  const field = (name: keyof ContactInput, label: string, input: (props: FieldProps) => React.ReactNode) => {
    const fieldId = `${id}-${name}`;
    const error = errors[name];
    return (
      <div>
        <label htmlFor={fieldId} className="block text-sm font-medium">
          {label}
        </label>
        {input({
          id: fieldId,
          name,
          value: values[name],
          "aria-invalid": error ? true : undefined,
          "aria-describedby": error ? `${fieldId}-error` : undefined,
          onChange: (event) => update(name, event.target.value),
          className:
            "mt-1 w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm aria-[invalid=true]:border-red-500 dark:border-slate-700 dark:bg-slate-900",
        })}
        {error && (
          <p id={`${fieldId}-error`} className="mt-1 text-sm text-red-600 dark:text-red-400">
            {error}
          </p>
        )}
      </div>
    );
  };

  return (
    <section aria-labelledby="report-heading" className="rounded-2xl border border-slate-200 p-6 dark:border-slate-800">
      <h2 id="report-heading" className="text-2xl font-bold tracking-tight">
        Report a Bug
      </h2>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
        Something off in an API or on the site? Tell us and we will look at it.
      </p>
      <form noValidate onSubmit={submit} className="mt-6 space-y-4">
        {field("username", "Name", (props) => (
          <input {...props} type="text" autoComplete="name" />
        ))}
        {field("email", "Email", (props) => (
          <input {...props} type="email" autoComplete="email" />
        ))}
        {field("message", "Message", (props) => (
          <textarea {...props} rows={4} />
        ))}
        <button
          type="submit"
          disabled={sending}
          className="rounded-md bg-brand-600 px-5 py-2.5 text-sm font-medium text-white hover:bg-brand-700 disabled:opacity-60"
        >
          {sending ? "Sending…" : "Send report"}
        </button>
      </form>
    </section>
  );
}

interface FieldProps {
  id: string;
  name: string;
  value: string;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
  onChange: (event: { target: { value: string } }) => void;
  className: string;
}
