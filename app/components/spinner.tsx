import { LoaderCircle } from "lucide-react";
import { useLoaderActive } from "~/lib/loader-store";

export function Spinner({ className = "size-10" }: { className?: string }) {
  return <LoaderCircle aria-hidden="true" className={`animate-spin text-brand-600 ${className}`} />;
}

/** The full-screen loader (docs/product.md#loading): for requests that ask for it. */
export function GlobalLoader() {
  const active = useLoaderActive();
  if (!active) return null;
  return <FullScreenSpinner label="Loading" />;
}

export function FullScreenSpinner({ label, className = "" }: { label: string; className?: string }) {
  return (
    <div
      role="status"
      aria-live="polite"
      className={`fixed inset-0 z-50 flex items-center justify-center bg-white/70 dark:bg-slate-950/70 ${className}`}
    >
      <Spinner />
      <span className="sr-only">{label}</span>
    </div>
  );
}
