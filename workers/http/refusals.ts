/**
 * The answers the main Worker gives at its entry, before a router sees the request: a body too
 * large (413), a form that cannot be read (400) and a state-changing request from another site (403). On `/api` they are
 * problem+json like every other API error; on pages they are words a person can read. A page
 * cannot show a message beside a field of a form it never read, so the whole page says it.
 */
import { problemBody, type ProblemType } from "./problem";
import { escapeHtml } from "~workers/platform/html";

export interface Refusal {
  status: 400 | 403 | 413;
  problem: ProblemType;
  title: string;
  detail: string;
}

export function refusalResponse(request: Request, refusal: Refusal, kind: "api" | "page"): Response {
  if (kind === "api") {
    // As workers/http/env.ts names requests, so a logged failure and the answer match.
    const requestId = request.headers.get("cf-ray") ?? crypto.randomUUID();
    return new Response(JSON.stringify(problemBody(refusal.problem, refusal.detail, requestId)), {
      status: refusal.status,
      headers: { "content-type": "application/problem+json", "x-request-id": requestId },
    });
  }
  // A form submitted by the app itself asks for `<path>.data`: React Router's client shows the
  // text of a 4xx answer in the page's error boundary (app/root.tsx).
  if (new URL(request.url).pathname.endsWith(".data")) {
    return new Response(refusal.detail, {
      status: refusal.status,
      headers: { "content-type": "text/plain; charset=utf-8" },
    });
  }
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(refusal.title)} — Portico</title></head>
<body>
<main>
<h1>${escapeHtml(refusal.title)}</h1>
<p>${escapeHtml(refusal.detail)}</p>
<p><a href="/">Go to Home</a></p>
</main>
</body>
</html>
`;
  return new Response(html, { status: refusal.status, headers: { "content-type": "text/html; charset=utf-8" } });
}

export const TOO_LARGE = {
  api: (limit: number): Refusal => ({
    status: 413,
    problem: "body-too-large",
    title: "Request body too large",
    detail: `Keep the request body under ${limit / 1024} KiB.`,
  }),
  page: (limit: number): Refusal => ({
    status: 413,
    problem: "body-too-large",
    title: "That form was too large",
    detail: `Portico accepts forms of up to ${limit / 1024} KiB. Go back, shorten what you entered and send it again.`,
  }),
};

export const FROM_ANOTHER_SITE = {
  api: (reason: string): Refusal => ({
    status: 403,
    problem: "forbidden",
    title: "Request from another site",
    detail: `This call changes state and came from another site (${reason}); only Portico's own pages may make it.`,
  }),
  page: (): Refusal => ({
    status: 403,
    problem: "forbidden",
    title: "This form came from another site",
    detail:
      "Portico only accepts forms sent from its own pages, and this one came from another site. If you meant to send it, open Portico and try again there.",
  }),
};

/** A page form whose body does not parse as the form its content type claims. */
export const UNREADABLE_FORM: Refusal = {
  status: 400,
  problem: "malformed-body",
  title: "That form could not be read",
  detail: "The form arrived damaged or in a shape Portico does not read. Go back and send it again from the page.",
};
