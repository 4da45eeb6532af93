import { index, layout, route, type RouteConfig } from "@react-router/dev/routes";

export default [
  index("routes/home/route.tsx"),
  route("terms-and-conditions", "routes/terms-and-conditions/route.tsx"),
  route("privacy-policy", "routes/privacy-policy/route.tsx"),
  route("security", "routes/security/route.tsx"),
  route("docs", "routes/docs/route.tsx"),
  route("docs/api/:slug", "routes/docs-api/route.tsx"),
  // Every problem `type` URL the API answers opens here (workers/http/problem.ts).
  route("problems/:type?", "routes/problems/route.tsx"),
  route("user/subscription", "routes/user-subscription/route.tsx"),

  // Accounts (public-only and public).
  route("user/authenticate", "routes/user-authenticate/route.tsx"),
  route("signup", "routes/signup/route.tsx"),
  route("change/password/:token", "routes/change-password/route.tsx"),
  route("user/verify-email/:token?", "routes/user-verify-email/route.tsx"),
  route("newsletter/confirm/:token", "routes/newsletter-confirm/route.tsx"),

  // The signed-in area: the layout's loader sends visitors without a session to /.
  layout("routes/user/layout.tsx", [
    route("user/dashboard", "routes/user-dashboard/route.tsx"),
    route("user/apikey", "routes/user-apikey/route.tsx"),
    route("user/settings", "routes/user-settings/route.tsx"),
    route("user/transactions", "routes/user-transactions/route.tsx"),
  ]),

  // Admin only: the layout's loader and each page's own loader and action send anyone but
  // ADMIN_EMAIL to / (a single-fetch request can run a page's loader without the layout's).
  layout("routes/admin/layout.tsx", [
    route("user-api-calls", "routes/user-api-calls/route.tsx"),
    route("benchmarking", "routes/benchmarking/route.tsx"),
    route("ai/prompt-to-image", "routes/ai-prompt-to-image/route.tsx"),
  ]),

  // Try an API from the browser with your own key.
  route(":slug/live-demo", "routes/live-demo/route.tsx"),

  // Where a short link that no longer works lands.
  route(":type/redirect/error/:alias", "routes/redirect-error/route.tsx"),
  route("status/payment/:paymentId", "routes/status-payment/route.tsx"),

  // Development only (its loader answers 404 elsewhere).
  route("dev/mail", "routes/dev-mail/route.tsx"),

  route("*", "routes/not-found/route.tsx"),
] satisfies RouteConfig;
