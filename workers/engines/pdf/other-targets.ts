/**
 * What a page opens outside itself. Puppeteer's request interception is the page's own: its
 * frames and dedicated workers are answered through the gate, but a popup (`window.open` from
 * any frame, a link or form with `target=_blank`), a shared worker or a service worker is a
 * target of its own that puppeteer attaches to at the browser level, pauses until set up, then
 * lets run uninterrupted, its requests going straight to the network. Every such target of this
 * call's browser context gets the Fetch domain enabled the moment it is attached (before
 * puppeteer lets it run, as CDP commands on one WebSocket keep their order), and each of its
 * requests is refused: no printed page needs one, and none may leave except through the gate.
 * Targets of other contexts (on the shared local Chromium, another call's) are left alone.
 */
import type { BrowserContext, CDPSession } from "@cloudflare/puppeteer";

/**
 * The parts of puppeteer's Connection used here (not in its public types): it emits
 * `sessionattached` with each new session as the attach arrives, then the browser-level event
 * by its method name; a session's `parentSession()` is the session that auto-attached it.
 */
export interface RawConnection {
  on(event: string, listener: (value: never) => void): unknown;
  off(event: string, listener: (value: never) => void): unknown;
}
type AttachedSession = CDPSession & { parentSession(): CDPSession | undefined };
interface AttachedToTarget {
  sessionId: string;
  targetInfo: { type: string; browserContextId?: string };
}

/** Target types that are a page's own (its interception covers them) rather than targets of their own. */
const PAGE_OWN_TYPES = new Set(["iframe", "worker"]);

export function refuseOtherTargets(connection: RawConnection, context: BrowserContext): () => void {
  const onSession = (session: AttachedSession) => {
    // Sent before anything else on the new session, so before puppeteer lets the target run;
    // what the target is arrives just after (below), in the same turn, and the interception is
    // dropped again for the page's own frames and dedicated workers, which puppeteer handles.
    session.send("Fetch.enable", { patterns: [{ urlPattern: "*" }] }).catch(() => undefined);
    let refuse: boolean | undefined;
    const announcer = (session.parentSession() ?? connection) as RawConnection;
    const onAttached = (event: AttachedToTarget) => {
      if (event.sessionId !== session.id()) return;
      announcer.off("Target.attachedToTarget", onAttached);
      refuse = event.targetInfo.browserContextId === context.id && !PAGE_OWN_TYPES.has(event.targetInfo.type);
      if (!refuse) session.send("Fetch.disable").catch(() => undefined);
    };
    announcer.on("Target.attachedToTarget", onAttached);
    session.on("Fetch.requestPaused", (event: { requestId: string }) => {
      if (refuse === false) return;
      session.send("Fetch.failRequest", { requestId: event.requestId, errorReason: "BlockedByClient" }).catch(() => undefined);
    });
  };
  connection.on("sessionattached", onSession);
  return () => connection.off("sessionattached", onSession);
}
