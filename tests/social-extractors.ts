/**
 * What the platform extractors' tests share: a post reference read from a fixture URL by the
 * API's own recogniser (so a test asks what a caller's link would), a post out of an extraction,
 * and an extractor over a fake behind its own host guard, recording every URL it fetched.
 */
import type { Extraction, PostRef } from "~workers/hosted/capabilities";
import { recognisePostUrl } from "~workers/hosted/youtube-instagram-video-downloader/recognise";
import { hostGuardedFetch, type ExtractorDeps, type PlatformExtractor } from "~workers/providers/social/extractor";

/** The PostRef the API would hand an extractor for this link. */
export function refOf(url: string | undefined): PostRef {
  const recognised = recognisePostUrl(url ?? "");
  if (!recognised.ok) throw new Error(`not a post link: ${url} (${recognised.reason})`);
  return recognised.ref;
}

export function expectPost(extraction: Extraction) {
  if (!extraction.ok) throw new Error(`expected a post, got ${extraction.kind}: ${extraction.detail}`);
  return extraction.post;
}

/** The extractor `make` builds over `fake`, behind a guard over its own API hosts, with every URL asked for. */
export function extractorHarness(
  make: (deps: ExtractorDeps) => PlatformExtractor,
  baseUrls: Record<string, string>,
  fake: typeof fetch,
) {
  const calls: string[] = [];
  const recording: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    calls.push(request.url);
    return fake(request);
  };
  const holder: { extractor?: PlatformExtractor } = {};
  const guarded: typeof fetch = (input, init) =>
    hostGuardedFetch(recording, holder.extractor?.apiHosts ?? [])(input, init);
  const extractor = make({ baseUrls, fetch: guarded });
  holder.extractor = extractor;
  const extract = (url: string | undefined) => extractor.extract(refOf(url), AbortSignal.timeout(5000));
  return { extractor, calls, extract };
}
