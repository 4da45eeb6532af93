/**
 * LinkedIn's fake: the public embed of each recorded post (linkedin/recorded.ts), the sign-in
 * wall a refused visitor is redirected to, and the licdn CDNs. A post is found only under the
 * urn kind it was recorded with (`activity`, `ugcPost`), as LinkedIn's embed answers.
 */
import type { FakePlatform } from "../fake-platform";
import { fakeMediaResponse } from "../fake-media";
import { LINKEDIN_AUTHWALL_PAGE, LINKEDIN_BLOCK_PAGE, LINKEDIN_MEDIA, LINKEDIN_RECORDED } from "./recorded";

const html = (body: string, status = 200) =>
  new Response(body, { status, headers: { "content-type": "text/html; charset=utf-8" } });

export const fakeLinkedin: FakePlatform = {
  hosts: ["www.linkedin.com", ".licdn.com"],
  handle(request) {
    const url = new URL(request.url);
    if (url.hostname.endsWith("licdn.com")) {
      const media = LINKEDIN_MEDIA[`${url.origin}${url.pathname}`];
      if (!media) return new Response(null, { status: 404 });
      return fakeMediaResponse(request, { seed: url.pathname, ...media });
    }
    if (url.pathname === "/authwall") return html(LINKEDIN_AUTHWALL_PAGE);
    const embed = /^\/embed\/feed\/update\/urn:li:(activity|ugcPost|share):(\d+)\/?$/.exec(
      decodeURIComponent(url.pathname),
    );
    const record = embed ? LINKEDIN_RECORDED[embed[2] ?? ""] : undefined;
    if (!embed || !record)
      return html("<!DOCTYPE html><html><head><title>Page not found | LinkedIn</title></head></html>", 404);
    if ("authwall" in record) {
      const back = encodeURIComponent(`${url.origin}${url.pathname}`);
      return new Response(null, {
        status: 302,
        headers: {
          location: `https://www.linkedin.com/authwall?trk=bf&trkInfo=AQE1x&original_referer=&sessionRedirect=${back}`,
        },
      });
    }
    if ("status" in record) {
      if (record.status <= 599) return new Response(null, { status: record.status, headers: record.headers });
      // LinkedIn's 999 is past what the Response constructor accepts (200-599); the extractor
      // reads only its status, so the fake answers a block page that reports it.
      const blocked = html(LINKEDIN_BLOCK_PAGE);
      Object.defineProperty(blocked, "status", { value: record.status });
      return blocked;
    }
    // A recorded card names its urn; the embed of the same number under another kind is no post.
    if (record.page.includes("urn:li:") && !record.page.includes(`urn:li:${embed[1]}:${embed[2]}`))
      return html("", 404);
    return html(record.page);
  },
};
