/**
 * Fetching URLs that callers hand us, without letting them reach what they should not
 * (SSRF): http(s) only, no credentials, and every host, on every redirect, must resolve only
 * to public addresses. Names are resolved over DNS-over-HTTPS (the resolver is configurable,
 * and faked in tests), because a Worker cannot look names up itself. Size and time are bounded.
 */
import { UrlInputError } from "~workers/hosted/definition";

export const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 10_000;
export const MAX_REDIRECTS = 5;

export interface AddressResolver {
  /** Every A and AAAA address of the name (empty when it has none). */
  resolve(hostname: string): Promise<string[]>;
}

/** Resolves with a DNS-over-HTTPS JSON resolver (Cloudflare's or Google's `/dns-query` API). */
export function createDohResolver(endpoint: string, fetcher: typeof fetch = fetch): AddressResolver {
  return {
    async resolve(hostname) {
      const lookups = await Promise.all(
        ["A", "AAAA"].map(async (type) => {
          const response = await fetcher(`${endpoint}?name=${encodeURIComponent(hostname)}&type=${type}`, {
            headers: { accept: "application/dns-json" },
          });
          if (!response.ok) throw new UrlInputError(`Could not resolve ${hostname}`);
          const body = (await response.json()) as { Answer?: { type: number; data: string }[] };
          return (body.Answer ?? [])
            .filter((answer) => answer.type === 1 || answer.type === 28)
            .map((answer) => answer.data);
        }),
      );
      return lookups.flat();
    },
  };
}

function ipv4Parts(address: string): number[] | null {
  const parts = address.split(".");
  if (parts.length !== 4) return null;
  const numbers = parts.map((part) => (/^\d{1,3}$/.test(part) ? Number(part) : NaN));
  return numbers.every((n) => n >= 0 && n <= 255) ? numbers : null;
}

/** Whether an address is one no caller may make us reach: private, loopback, link-local, metadata, reserved. */
export function isForbiddenAddress(address: string): boolean {
  const v4 = ipv4Parts(address);
  if (v4) {
    const [a = 0, b = 0] = v4;
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
      (a === 169 && b === 254) || // link-local, cloud metadata
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 192 && b === 0) ||
      (a === 198 && (b === 18 || b === 19)) ||
      a >= 224
    );
  }
  const v6 = address.toLowerCase().replace(/^\[|\]$/g, "");
  if (!v6.includes(":")) return true; // neither IPv4 nor IPv6: refuse rather than guess
  const mapped = v6.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/);
  if (mapped?.[1]) return isForbiddenAddress(mapped[1]);
  return (
    v6 === "::" ||
    v6 === "::1" ||
    v6.startsWith("fc") ||
    v6.startsWith("fd") || // unique local
    /^fe[89ab]/.test(v6) || // link-local
    v6.startsWith("ff") || // multicast
    v6.startsWith("64:ff9b:") || // NAT64 can reach IPv4 private space
    v6.startsWith("2001:db8")
  );
}

async function checkHost(url: URL, resolver: AddressResolver): Promise<void> {
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new UrlInputError("Only http and https URLs are accepted.");
  if (url.username || url.password) throw new UrlInputError("URLs with credentials are not accepted.");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".internal") || host.endsWith(".local")) {
    throw new UrlInputError("That URL points at a private address.");
  }
  const literal = ipv4Parts(host) !== null || host.includes(":");
  const addresses = literal ? [host] : await resolver.resolve(host);
  if (addresses.length === 0) throw new UrlInputError(`${host} does not resolve to any address.`);
  if (addresses.some(isForbiddenAddress)) throw new UrlInputError("That URL points at a private address.");
}

export interface GuardedFetchOptions {
  resolver: AddressResolver;
  fetcher?: typeof fetch;
  maxBytes?: number;
  timeoutMs?: number;
  accept?: string;
}

export async function fetchGuarded(
  input: string,
  options: GuardedFetchOptions,
): Promise<{ bytes: Uint8Array; contentType: string; finalUrl: string }> {
  const fetcher = options.fetcher ?? fetch;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new UrlInputError("That is not a valid URL.");
  }
  const signal = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    await checkHost(url, options.resolver);
    let response: Response;
    try {
      response = await fetcher(url.toString(), {
        redirect: "manual",
        signal,
        headers: { accept: options.accept ?? "*/*", "user-agent": "PorticoBot/1.0 (+https://portico.dev)" },
      });
    } catch {
      throw new UrlInputError(signal.aborted ? "The URL took too long to answer." : "The URL could not be fetched.");
    }
    if (response.status >= 300 && response.status < 400 && response.headers.get("location")) {
      url = new URL(response.headers.get("location") ?? "", url);
      continue;
    }
    if (!response.ok) throw new UrlInputError(`The URL answered ${response.status}.`);
    const declared = Number(response.headers.get("content-length") ?? "0");
    if (declared > maxBytes) throw new UrlInputError(`The file is larger than ${maxBytes} bytes.`);
    const reader = response.body?.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    while (reader) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        throw new UrlInputError(`The file is larger than ${maxBytes} bytes.`);
      }
      chunks.push(value);
    }
    const bytes = new Uint8Array(size);
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return {
      bytes,
      contentType: response.headers.get("content-type") ?? "application/octet-stream",
      finalUrl: url.toString(),
    };
  }
  throw new UrlInputError(`More than ${MAX_REDIRECTS} redirects.`);
}
