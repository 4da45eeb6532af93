/**
 * Toasts without sonner in the page's first load: sonner (9 KB gzip, a tenth of the home page's
 * JavaScript) shows nothing until someone acts, so it is fetched once the page is idle
 * (app/components/toaster.tsx) or at the first toast, whichever comes first. A toast asked for
 * before it has arrived is shown as soon as it has: sonner hands the toasts made before its
 * Toaster subscribed to the Toaster when it mounts.
 */
type Sonner = typeof import("sonner");

let loading: Promise<Sonner> | undefined;
const listeners = new Set<(sonner: Sonner) => void>();

/** Fetches sonner once; every caller gets the same module. */
export function loadSonner(): Promise<Sonner> {
  loading ??= import("sonner").then(
    (sonner) => {
      for (const listener of listeners) listener(sonner);
      return sonner;
    },
    (error: unknown) => {
      // A failed fetch (offline, a deploy replaced the chunk) is tried again at the next toast.
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** Calls `listener` when sonner has arrived (at once if it has); returns the unsubscribe. */
export function onSonnerLoaded(listener: (sonner: Sonner) => void): () => void {
  listeners.add(listener);
  loading?.then(listener, () => undefined);
  return () => listeners.delete(listener);
}

function show(kind: "success" | "error" | "info", message: string): void {
  loadSonner().then(
    (sonner) => sonner.toast[kind](message),
    // The chunk could not be fetched (offline, a deploy replaced it): nothing to show it with.
    (error: unknown) => console.error("Could not load the toasts", error),
  );
}

/** The part of sonner's `toast` the app uses, with the same meaning. */
export const toast = {
  success: (message: string) => show("success", message),
  error: (message: string) => show("error", message),
  info: (message: string) => show("info", message),
};
