/**
 * The error a caller-supplied URL or host is refused with, for the caller to read. It lives
 * below the hosted APIs, the gateway and the providers, since all three raise or catch it: the
 * outbound guard (workers/gateway/url-guard.ts) throws it, handlers throw it for their own
 * checks, and the gateway's run step answers it as the caller's input error. Declared in
 * hosted/definition.ts it made a loop (hosted → providers → gateway/url-guard → hosted).
 */

/** A caller-supplied URL that may not be fetched; the message is safe to show the caller. */
export class UrlInputError extends Error {}
