/**
 * React Router's browser entry, as its default (`@react-router/dev`'s entry.client.tsx) but for
 * Preact (docs/decisions/065). On its first render HydratedRouter throws the promise of decoding
 * the server's data (the stream in window.__reactRouterContext): React's root suspends on it and
 * hydrates when it settles, while Preact, with no Suspense above, would stop at an uncaught
 * promise and leave the page unhydrated. So the entry waits for that decoding first: the first
 * call starts it and throws the promise before running any hook, and the document is hydrated
 * once it has settled (a failed decoding is thrown again by the real render, as React would).
 */
import { Fragment, options } from "preact";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";

/**
 * Preact renders into a document's <html> element, not the document (its render() swaps one
 * for the other), so the app's <html> would be created again inside the one the server sent.
 * In the browser the app's <html> is a fragment: its <head> and <body> hydrate the server's in
 * place. Its attributes (lang) stay the server's, which is all they ever are.
 */
const createdVNode = options.vnode;
options.vnode = (vnode) => {
  if (vnode.type === "html") vnode.type = Fragment;
  createdVNode?.(vnode);
};

function decodingServerData(): Promise<unknown> {
  try {
    HydratedRouter({});
  } catch (thrown) {
    if (thrown instanceof Promise) return thrown;
    throw thrown;
  }
  throw new Error("HydratedRouter rendered outside a render: React Router no longer suspends on its data here");
}

void decodingServerData().then(() => hydrateRoot(document, <HydratedRouter />));

// `vite dev`: React Router's plugin applies an edit through React Fast Refresh, which drives
// React's renderer and does nothing with Preact's, so the page reloads after an update instead.
import.meta.hot?.on("vite:afterUpdate", () => window.location.reload());
