import { index, route, type RouteConfig } from "@react-router/dev/routes";

export default [
  index("routes/home/route.tsx"),
  route("terms-and-conditions", "routes/terms-and-conditions/route.tsx"),
  route("privacy-policy", "routes/privacy-policy/route.tsx"),
  route("docs", "routes/docs/route.tsx"),
  route("docs/api/:slug", "routes/docs-api/route.tsx"),
  route("*", "routes/not-found/route.tsx"),
] satisfies RouteConfig;
