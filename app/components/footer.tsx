/** The footer (docs/product.md#footer): logo, copyright, copy-support-address, social link, legal links. */
import { Check, Copy, ExternalLink } from "lucide-react";
import { useEffect, useState } from "react";
import { Link } from "react-router";
import { toast } from "~/lib/toast";
import { SITE } from "~/lib/site";

export const COPY_CONFIRMATION_MS = 1_500;

async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // Older browsers and insecure origins have no async clipboard: fall back to a selection.
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    const copied = document.execCommand("copy");
    area.remove();
    if (!copied) throw new Error("Copy was refused");
  }
}

export function Footer() {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPY_CONFIRMATION_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copySupportAddress = async () => {
    try {
      await copyText(SITE.supportEmail);
      setCopied(true);
      toast.success("Contact email copied successfully");
    } catch {
      toast.error(`Could not copy. Our address is ${SITE.supportEmail}`);
    }
  };

  return (
    <footer className="mt-16 border-t border-slate-200 pb-16 dark:border-slate-800">
      <div className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-8 md:flex-row md:items-center md:justify-between">
        <div className="flex flex-col gap-2">
          <Link to="/" aria-label="Portico home" className="w-fit">
            <img src="/logo.svg" alt="" style={{ height: 40 }} width={160} height={40} className="w-auto" />
          </Link>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            © {new Date().getFullYear()} {SITE.name}. All rights reserved.
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-x-6 gap-y-3 text-sm">
          <button
            type="button"
            onClick={copySupportAddress}
            aria-label={`Copy support address ${SITE.supportEmail}`}
            className="flex items-center gap-1.5 rounded-md border border-slate-300 px-3 py-1.5 hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
          >
            {copied ? (
              <Check aria-hidden="true" className="size-4 text-emerald-600" />
            ) : (
              <Copy aria-hidden="true" className="size-4" />
            )}
            {copied ? "Copied!" : SITE.supportEmail}
          </button>
          <a
            href={SITE.socialUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="flex items-center gap-1 hover:underline"
          >
            Follow us on LinkedIn
            <ExternalLink aria-hidden="true" className="size-3.5" />
            <span className="sr-only">(opens in a new tab)</span>
          </a>
          <Link to="/terms-and-conditions" className="hover:underline">
            Terms and Conditions
          </Link>
          <Link to="/privacy-policy" className="hover:underline">
            Privacy Policy
          </Link>
          <Link to="/security" className="hover:underline">
            Security
          </Link>
        </div>
      </div>
    </footer>
  );
}
