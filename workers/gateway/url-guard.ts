/**
 * Fetching URLs that callers hand us, without letting them reach what they should not
 * (SSRF): http(s) only, no credentials, and every host, on every redirect, must resolve only
 * to public addresses. Names are resolved over DNS-over-HTTPS (the resolver is configurable,
 * and faked in tests), because a Worker cannot look names up itself. Size and time are bounded.
 */
import { UrlInputError } from "~workers/net/url-input-error";
import { DohError, queryDoh, RR } from "~workers/providers/dns/doh";

export const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 10_000;
export const MAX_REDIRECTS = 5;

export interface AddressResolver {
  /** Every A and AAAA address of the name (empty when it has none). */
  resolve(hostname: string, signal?: AbortSignal): Promise<string[]>;
}

/**
 * Resolves with a DNS-over-HTTPS JSON resolver (Cloudflare's or Google's `/dns-query` API),
 * through the one DoH client (workers/providers/dns/doh.ts). A resolver's HTTP error is the
 * caller's name not resolving; its silence or garbage is a failure of ours (thrown on).
 */
export function createDohResolver(endpoint: string, fetcher: typeof fetch = fetch): AddressResolver {
  return {
    async resolve(hostname, signal) {
      const lookups = await Promise.all(
        (["A", "AAAA"] as const).map(async (type) => {
          try {
            const answer = await queryDoh(endpoint, hostname, type, { fetcher, signal });
            return answer.answers
              .filter((record) => record.type === RR.A || record.type === RR.AAAA)
              .map((record) => record.data);
          } catch (error) {
            if (error instanceof DohError && error.status !== undefined) {
              throw new UrlInputError(`Could not resolve ${hostname}`);
            }
            throw error;
          }
        }),
      );
      return lookups.flat();
    },
  };
}

/**
 * Addresses are judged as bytes, never by their spelling: one IPv6 address has many texts
 * (`::ffff:127.0.0.1`, `::ffff:7f00:1`, `0:0:0:0:0:ffff:7f00:0001`), and WHATWG URL serialises
 * the embedded-IPv4 forms in hex, so a pattern over text lets the hex forms through.
 */

/** Strict dotted decimal, the only IPv4 form a URL hostname (after WHATWG normalisation) or a DoH answer uses. */
function parseIpv4(text: string): number[] | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  const bytes: number[] = [];
  for (const part of parts) {
    // No leading zeros: "010" is octal 8 to some parsers and decimal 10 to others; refuse the doubt.
    if (!/^(0|[1-9]\d{0,2})$/.test(part)) return null;
    const value = Number(part);
    if (value > 255) return null;
    bytes.push(value);
  }
  return bytes;
}

/**
 * RFC 4291 text form into 16 bytes: `::` compression, a dotted IPv4 tail, optional brackets.
 * A zone id (`fe80::1%eth0`) is refused: WHATWG URL rejects it, a DoH answer never has one,
 * and a scoped address only means something on one local link.
 */
function parseIpv6(text: string): number[] | null {
  let body = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  if (body.includes("%")) return null;
  const lastColon = body.lastIndexOf(":");
  if (lastColon === -1) return null;
  const tail = body.slice(lastColon + 1);
  if (tail.includes(".")) {
    // A dotted IPv4 tail stands for the last two groups.
    const v4 = parseIpv4(tail);
    if (!v4) return null;
    const [a = 0, b = 0, c = 0, d = 0] = v4;
    body = `${body.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = body.split("::");
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(":") : [];
  const rest = halves.length === 2 ? (halves[1] ? halves[1].split(":") : []) : null;
  let groups: string[];
  if (rest === null) {
    if (head.length !== 8) return null;
    groups = head;
  } else {
    // `::` stands for one or more zero groups (RFC 4291 2.2), so at most 7 are written.
    const missing = 8 - head.length - rest.length;
    if (missing < 1) return null;
    groups = [...head, ...Array<string>(missing).fill("0"), ...rest];
  }
  const bytes: number[] = [];
  for (const group of groups) {
    if (!/^[0-9a-f]{1,4}$/i.test(group)) return null;
    const value = Number.parseInt(group, 16);
    bytes.push(value >> 8, value & 0xff);
  }
  return bytes;
}

interface Prefix {
  bytes: number[];
  bits: number;
}

function prefix(cidr: string): Prefix {
  const [address = "", bits = ""] = cidr.split("/");
  const bytes = parseIpv4(address) ?? parseIpv6(address);
  if (!bytes) throw new Error(`Bad prefix ${cidr}`);
  return { bytes, bits: Number(bits) };
}

function within(bytes: number[], { bytes: net, bits }: Prefix): boolean {
  for (let i = 0; i < bits; i++) {
    const mask = 0x80 >> (i % 8);
    const index = Math.floor(i / 8);
    if (((bytes[index] ?? 0) & mask) !== ((net[index] ?? 0) & mask)) return false;
  }
  return true;
}

/** IPv4 space no caller may reach (IANA special-purpose registry, less the globally reachable entries). */
const FORBIDDEN_V4 = [
  "0.0.0.0/8", // "this network"; 0.0.0.0 reaches the local host on many stacks
  "10.0.0.0/8", // private
  "100.64.0.0/10", // carrier-grade NAT
  "127.0.0.0/8", // loopback
  "169.254.0.0/16", // link-local, cloud metadata (169.254.169.254)
  "172.16.0.0/12", // private
  "192.0.0.0/24", // IETF protocol assignments
  "192.0.2.0/24", // documentation (TEST-NET-1)
  "192.168.0.0/16", // private
  "198.18.0.0/15", // benchmarking
  "198.51.100.0/24", // documentation (TEST-NET-2)
  "203.0.113.0/24", // documentation (TEST-NET-3)
  "224.0.0.0/4", // multicast
  "240.0.0.0/4", // reserved, and 255.255.255.255 broadcast within it
].map(prefix);

/** IPv6 prefixes that carry an IPv4 address; the embedded address decides. */
const EMBEDDING_V6: { prefix: Prefix; offset: number }[] = [
  { prefix: prefix("::ffff:0:0/96"), offset: 12 }, // IPv4-mapped
  { prefix: prefix("::/96"), offset: 12 }, // IPv4-compatible (deprecated); :: and ::1 land in 0.0.0.0/8
  { prefix: prefix("64:ff9b::/96"), offset: 12 }, // NAT64 well-known prefix (RFC 6052)
  { prefix: prefix("2002::/16"), offset: 2 }, // 6to4: the relay's IPv4 is bits 16-48
];

const FORBIDDEN_V6 = [
  // Local-use NAT64 (RFC 8215): where the IPv4 address sits depends on the prefix length the
  // operator picked (/48 to /96), so it cannot be judged; public resolvers never answer with it.
  "64:ff9b:1::/48",
  "100::/64", // discard-only
  "2001::/32", // Teredo: tunnels to an IPv4 relay and obfuscated client we cannot judge
  "2001:2::/48", // benchmarking, like 198.18.0.0/15
  "2001:db8::/32", // documentation
  "3fff::/20", // documentation (RFC 9637)
  "fc00::/7", // unique local
  "fe80::/10", // link-local
  "fec0::/10", // site-local (deprecated, still routed inside some networks)
  "ff00::/8", // multicast
].map(prefix);

/** All public unicast IPv6 is allocated from 2000::/3; anything else outside the forms above is not public. */
const GLOBAL_UNICAST_V6 = prefix("2000::/3");

function isForbiddenIpv4(bytes: number[]): boolean {
  return FORBIDDEN_V4.some((net) => within(bytes, net));
}

function isForbiddenIpv6(bytes: number[]): boolean {
  for (const { prefix: net, offset } of EMBEDDING_V6) {
    if (within(bytes, net)) return isForbiddenIpv4(bytes.slice(offset, offset + 4));
  }
  if (FORBIDDEN_V6.some((net) => within(bytes, net))) return true;
  return !within(bytes, GLOBAL_UNICAST_V6);
}

/** Whether an address is one no caller may make us reach: private, loopback, link-local, metadata, reserved. */
export function isForbiddenAddress(address: string): boolean {
  const v4 = parseIpv4(address);
  if (v4) return isForbiddenIpv4(v4);
  const v6 = parseIpv6(address);
  // Neither IPv4 nor IPv6 we can read: refuse rather than guess what the network stack would make of it.
  return v6 ? isForbiddenIpv6(v6) : true;
}

/**
 * The guard's judgement of one URL's host, for callers that fetch on their own terms (the RDAP
 * client reads 404 as an answer, which `fetchGuarded` refuses): throws `UrlInputError`.
 */
export async function checkUrlHost(url: URL, resolver: AddressResolver, signal: AbortSignal): Promise<void> {
  return checkHost(url, resolver, signal);
}

async function checkHost(url: URL, resolver: AddressResolver, signal: AbortSignal): Promise<void> {
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new UrlInputError("Only http and https URLs are accepted.");
  if (url.username || url.password) throw new UrlInputError("URLs with credentials are not accepted.");
  const host = url.hostname;
  // A literal address: WHATWG URL brackets IPv6 and turns every numeric IPv4 spelling
  // (2130706433, 0x7f.1, 0177.0.0.1) into dotted decimal before we see it.
  if (host.startsWith("[") || parseIpv4(host)) {
    if (isForbiddenAddress(host)) throw new UrlInputError("That URL points at a private address.");
    return;
  }
  // "localhost." is the same name as "localhost": the root label must not slip past the check.
  const name = host.endsWith(".") ? host.slice(0, -1) : host;
  if (name === "localhost" || name.endsWith(".localhost") || name.endsWith(".internal") || name.endsWith(".local")) {
    throw new UrlInputError("That URL points at a private address.");
  }
  const addresses = await resolver.resolve(host, signal);
  if (addresses.length === 0) throw new UrlInputError(`${host} does not resolve to any address.`);
  if (addresses.some(isForbiddenAddress)) throw new UrlInputError("That URL points at a private address.");
}

export interface GuardedFetchOptions {
  resolver: AddressResolver;
  fetcher?: typeof fetch;
  maxBytes?: number;
  timeoutMs?: number;
  accept?: string;
  /** The caller's own limit (the gateway's handler time-out): aborting it stops the lookups and the fetch. */
  signal?: AbortSignal;
}

export interface GuardedFetchResult {
  bytes: Uint8Array;
  contentType: string;
  /** Where the last redirect led. */
  finalUrl: string;
}

export async function fetchGuarded(input: string, options: GuardedFetchOptions): Promise<GuardedFetchResult> {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new UrlInputError("That is not a valid URL.");
  }
  // One time limit covers the lookups, every hop and the body. It is our own timer, cleared
  // when the fetch ends: AbortSignal.timeout's timer would stay armed for the full limit, and
  // workerd allows a request only 10,000 armed timers.
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new DOMException("The URL took too long to answer.", "TimeoutError")),
    options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  );
  const signal = options.signal ? AbortSignal.any([deadline.signal, options.signal]) : deadline.signal;
  try {
    return await fetchWithin(url, options, signal);
  } finally {
    clearTimeout(timer);
  }
}

async function fetchWithin(start: URL, options: GuardedFetchOptions, signal: AbortSignal): Promise<GuardedFetchResult> {
  const fetcher = options.fetcher ?? fetch;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  let url = start;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    await checkHost(url, options.resolver, signal);
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
      // The redirect's own body is never read; release it rather than leave it to the timeout.
      await response.body?.cancel();
      try {
        url = new URL(response.headers.get("location") ?? "", url);
      } catch {
        // A malformed Location is the remote server's fault, reported like any other bad URL.
        throw new UrlInputError("The URL redirected to an invalid address.");
      }
      continue;
    }
    if (!response.ok) throw new UrlInputError(`The URL answered ${response.status}.`);
    const declared = Number(response.headers.get("content-length") ?? "0");
    if (declared > maxBytes) throw new UrlInputError(`The file is larger than ${maxBytes} bytes.`);
    const reader = response.body?.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    while (reader) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch {
        // The time limit (or the remote end) can cut the body off half-way, not only the headers.
        throw new UrlInputError(
          signal.aborted ? "The URL took too long to answer." : "The URL's answer broke off before its end.",
        );
      }
      const { done, value } = chunk;
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
