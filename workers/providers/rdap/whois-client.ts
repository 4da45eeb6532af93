/**
 * Port-43 WHOIS (RFC 3912): open TCP to the registry's server, send the name and CRLF, read
 * until the server closes. Workers reach port 43 through `connect()` from `cloudflare:sockets`.
 * The answer is bounded in size and time, since a server may trickle or never close.
 *
 * `WhoisTransport` is the boundary the lookups use; `socketWhois` is the real one and takes
 * `connect` as an argument, so its reading (EOF, the size bound, the time bound) is tested over
 * in-memory streams. The local fake (fake.ts) answers recorded texts at the same boundary:
 * workerd's test runner cannot reach a socket server started beside it.
 */
import { connect as socketConnect } from "cloudflare:sockets";

export const WHOIS_MAX_BYTES = 64 * 1024;
export const WHOIS_TIMEOUT_MS = 8_000;

export type WhoisAnswer = { ok: true; text: string } | { ok: false; reason: "timeout" | "refused" | "too-large" };

export interface WhoisTransport {
  query(host: string, name: string, signal: AbortSignal): Promise<WhoisAnswer>;
}

/** What `socketWhois` needs of a socket: `cloudflare:sockets`' Socket has these. */
export interface SocketLike {
  readable: ReadableStream<Uint8Array>;
  writable: WritableStream<Uint8Array>;
  opened: Promise<unknown>;
  close(): Promise<void>;
}

/**
 * The query line is the name and CRLF, so a CR or LF in it would send a second query (or
 * anything else) to the registry's server. The API's schema admits only A-label names, but this
 * transport is exported and may get other callers: it checks for itself. A name that fails is a
 * bug in the caller, not an answer, so it throws.
 */
function assertQueryName(name: string): void {
  if (name.length === 0 || name.length > 253 || !/^[a-z0-9.-]+$/.test(name)) {
    throw new RangeError(`Not a lower-case A-label domain name: ${JSON.stringify(name.slice(0, 80))}`);
  }
}

export type Connect = (address: { hostname: string; port: number }) => SocketLike;

export function socketWhois(
  connect: Connect = (address) => socketConnect(address) as unknown as SocketLike,
  limits: { maxBytes?: number; timeoutMs?: number } = {},
): WhoisTransport {
  const maxBytes = limits.maxBytes ?? WHOIS_MAX_BYTES;
  const timeoutMs = limits.timeoutMs ?? WHOIS_TIMEOUT_MS;
  return {
    async query(host, name, signal) {
      assertQueryName(name);
      if (signal.aborted) return { ok: false, reason: "timeout" };
      let socket: SocketLike;
      try {
        socket = connect({ hostname: host, port: 43 });
      } catch {
        return { ok: false, reason: "refused" };
      }
      // One timer for connecting, writing and reading; our own, cleared at the end (see
      // url-guard.ts on why not AbortSignal.timeout).
      let timer: ReturnType<typeof setTimeout> | undefined;
      const expired = new Promise<"timeout">((resolve) => {
        timer = setTimeout(() => resolve("timeout"), timeoutMs);
        signal.addEventListener("abort", () => resolve("timeout"), { once: true });
      });
      const exchange = async (): Promise<WhoisAnswer> => {
        try {
          await socket.opened;
          const writer = socket.writable.getWriter();
          await writer.write(new TextEncoder().encode(`${name}\r\n`));
          writer.releaseLock();
        } catch {
          return { ok: false, reason: "refused" };
        }
        const reader = socket.readable.getReader();
        const chunks: Uint8Array[] = [];
        let size = 0;
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            size += value.byteLength;
            if (size > maxBytes) return { ok: false, reason: "too-large" };
            chunks.push(value);
          }
        } catch {
          // A reset after some text is still an answer; a reset before any is a refusal.
          if (size === 0) return { ok: false, reason: "refused" };
        }
        const bytes = new Uint8Array(size);
        let offset = 0;
        for (const chunk of chunks) {
          bytes.set(chunk, offset);
          offset += chunk.byteLength;
        }
        // Registries answer UTF-8 or Latin-1; the decoder replaces what is not UTF-8.
        return { ok: true, text: new TextDecoder().decode(bytes) };
      };
      try {
        const outcome = await Promise.race([exchange(), expired]);
        return outcome === "timeout" ? { ok: false, reason: "timeout" } : outcome;
      } finally {
        clearTimeout(timer);
        socket.close().catch(() => undefined);
      }
    },
  };
}
