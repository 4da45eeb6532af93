import { createContext } from "react-router";

/** How loaders and actions reach the bindings: `context.get(cloudflareContext).env`. */
export const cloudflareContext = createContext<{ env: Env; ctx: ExecutionContext }>();
