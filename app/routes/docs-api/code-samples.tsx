import { Check, Copy } from "lucide-react";
import { useId, useState } from "react";

const LANGUAGES = [
  ["curl", "curl"],
  ["javascript", "JavaScript"],
  ["python", "Python"],
] as const;

export type Samples = Record<(typeof LANGUAGES)[number][0], string>;

/** Tabs of code samples with a copy button; `apiKey` replaces the placeholder when known. */
export function CodeSamples({
  samples,
  placeholder,
  apiKey,
}: {
  samples: Samples;
  placeholder: string;
  apiKey: string;
}) {
  const [language, setLanguage] = useState<keyof Samples>("curl");
  const [copied, setCopied] = useState(false);
  const id = useId();
  const code = samples[language].replaceAll(placeholder, apiKey || placeholder);
  return (
    <div className="mt-3 overflow-hidden rounded-lg border border-slate-200 dark:border-slate-800">
      <div className="flex items-center gap-1 bg-slate-100 px-2 py-1 dark:bg-slate-900">
        {/* A tablist may own only tabs, so the copy button sits beside it, not in it. */}
        <div role="tablist" aria-label="Sample language" className="flex items-center gap-1">
          {LANGUAGES.map(([value, label], index) => (
            <button
              key={value}
              type="button"
              role="tab"
              id={`${id}-${value}`}
              aria-selected={language === value}
              aria-controls={`${id}-panel`}
              // One tab stop for the list (the selected tab); the arrow keys move between tabs.
              tabIndex={language === value ? 0 : -1}
              onClick={() => setLanguage(value)}
              onKeyDown={(event) => {
                const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
                if (step === 0) return;
                event.preventDefault();
                const next = LANGUAGES[(index + step + LANGUAGES.length) % LANGUAGES.length];
                if (!next) return;
                setLanguage(next[0]);
                document.getElementById(`${id}-${next[0]}`)?.focus();
              }}
              className="rounded px-2.5 py-1 text-xs font-medium aria-selected:bg-white aria-selected:shadow dark:aria-selected:bg-slate-800"
            >
              {label}
            </button>
          ))}
        </div>
        <button
          type="button"
          onClick={async () => {
            await navigator.clipboard.writeText(code).catch(() => undefined);
            setCopied(true);
            setTimeout(() => setCopied(false), 1_500);
          }}
          className="ml-auto flex items-center gap-1 rounded px-2 py-1 text-xs hover:bg-white dark:hover:bg-slate-800"
        >
          {copied ? (
            <Check aria-hidden="true" className="size-3.5" />
          ) : (
            <Copy aria-hidden="true" className="size-3.5" />
          )}
          {copied ? "Copied" : "Copy"}
        </button>
      </div>
      <pre
        id={`${id}-panel`}
        role="tabpanel"
        aria-labelledby={`${id}-${language}`}
        // Focusable, so a keyboard can reach the panel and scroll a long line sideways.
        tabIndex={0}
        className="overflow-x-auto bg-slate-950 p-4 text-sm text-slate-100"
      >
        <code>{code}</code>
      </pre>
    </div>
  );
}
