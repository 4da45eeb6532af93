/**
 * The nonce of the page's Content-Security-Policy, for the inline scripts the app writes itself
 * (the colour-mode bootstrap in root.tsx). app/entry.server.tsx provides it while rendering; in
 * the browser there is none (browsers hide a nonce from scripts), and an inline script the
 * server already rendered is never run again.
 */
import { createContext, useContext } from "react";

export const CspNonceContext = createContext<string | undefined>(undefined);

export function useCspNonce(): string | undefined {
  return useContext(CspNonceContext);
}
