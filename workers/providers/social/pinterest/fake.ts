/**
 * Pinterest's fake: pin pages and the PinResource endpoint for the recorded pins
 * (pinterest/recorded.ts), pin.it's redirect chain (pin.it → api.pinterest.com's url_shortener
 * → the pin's `/sent/` page on www), and the pinimg CDNs.
 */
import type { FakePlatform } from "../fake-platform";
import { fakeMediaResponse } from "../fake-media";
import { PINTEREST_MEDIA, PINTEREST_RECORDED, PINTEREST_SHORT_LINKS } from "./recorded";

const html = (body: string, status = 200) =>
  new Response(body, { status, headers: { "content-type": "text/html; charset=utf-8" } });
const redirect = (location: string, status = 302) => new Response(null, { status, headers: { location } });

export const fakePinterest: FakePlatform = {
  hosts: ["www.pinterest.com", "api.pinterest.com", "pin.it", ".pinimg.com"],
  handle(request) {
    const url = new URL(request.url);
    if (url.hostname.endsWith("pinimg.com")) {
      const media = PINTEREST_MEDIA[`${url.origin}${url.pathname}`];
      if (!media) return new Response(null, { status: 404 });
      return fakeMediaResponse(request, { seed: url.pathname, ...media });
    }
    if (url.hostname === "pin.it") {
      const code = url.pathname.slice(1);
      if (!PINTEREST_SHORT_LINKS[code]) return html("<html><body>Not found</body></html>", 404);
      return redirect(`https://api.pinterest.com/url_shortener/${code}/redirect/`, 301);
    }
    if (url.hostname === "api.pinterest.com") {
      const code = /^\/url_shortener\/([^/]+)\/redirect\/$/.exec(url.pathname)?.[1];
      const pin = code ? PINTEREST_SHORT_LINKS[code] : undefined;
      if (!pin)
        return new Response(JSON.stringify({ status: "failure", code: 404, message: "Not found" }), { status: 404 });
      return redirect(
        `https://www.pinterest.com/pin/${pin}/sent/?invite_code=5d2e1c0b9a8f4e3d&sender=1055600044522311000&sfo=1`,
      );
    }
    if (url.pathname === "/resource/PinResource/get/") {
      const options = (JSON.parse(url.searchParams.get("data") ?? "{}") as { options?: { id?: string } }).options;
      const record = PINTEREST_RECORDED[options?.id ?? ""];
      const resource = record && "page" in record ? record.resource : undefined;
      if (!resource) {
        return new Response(
          JSON.stringify({
            resource_response: { status: "failure", code: 50, message: "Invalid resource request", data: null },
          }),
          { status: 404 },
        );
      }
      return new Response(JSON.stringify(resource.body), {
        status: resource.status,
        headers: { "content-type": "application/json" },
      });
    }
    const id = /^\/pin\/(\d+)\/(?:sent\/)?$/.exec(url.pathname)?.[1];
    const record = id ? PINTEREST_RECORDED[id] : undefined;
    if (!record) return html("<!DOCTYPE html><html><head><title>Pinterest</title></head><body></body></html>", 404);
    if ("status" in record) return new Response(null, { status: record.status, headers: record.headers });
    return html(record.page);
  },
};
