import { createContext } from "react-router";

/** How loaders and actions reach the bindings: `context.get(cloudflareContext).env`. */
export const cloudflareContext = createContext<{ env: Env; ctx: ExecutionContext }>();

/**
 * The nonce of this page response's Content-Security-Policy, made by workers/app.ts and read by
 * app/entry.server.tsx, which hands it to React Router's and React's own inline scripts.
 */
export const cspNonceContext = createContext<string>();
