/**
 * sonner's Toaster, mounted once sonner has arrived (app/lib/toast.ts): when the browser is
 * first idle after hydration, or at the first toast if that comes sooner. The server renders
 * nothing here, and neither does the first client render, so hydration matches.
 */
import { useEffect, useState, type ComponentProps } from "react";
import type { Toaster as SonnerToaster } from "sonner";
import { loadSonner, onSonnerLoaded } from "~/lib/toast";

/** The longest the idle wait may last before sonner is fetched anyway. */
const IDLE_TIMEOUT_MS = 2_000;

export function LazyToaster(props: ComponentProps<typeof SonnerToaster>) {
  const [Toaster, setToaster] = useState<typeof SonnerToaster | null>(null);
  useEffect(() => {
    const unsubscribe = onSonnerLoaded((sonner) => setToaster(() => sonner.Toaster));
    const load = () => void loadSonner().catch(() => undefined);
    if (typeof window.requestIdleCallback === "function") {
      const handle = window.requestIdleCallback(load, { timeout: IDLE_TIMEOUT_MS });
      return () => {
        unsubscribe();
        window.cancelIdleCallback(handle);
      };
    }
    const timer = setTimeout(load, 0);
    return () => {
      unsubscribe();
      clearTimeout(timer);
    };
  }, []);
  return Toaster ? <Toaster {...props} /> : null;
}
