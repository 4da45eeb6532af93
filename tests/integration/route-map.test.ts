/**
 * The URL names the file (README, Layout). A page at `/a/b/:id` is `app/routes/a-b/route.tsx`;
 * `/api/<name>/…` is `workers/api/<name>.ts`; every other path the Worker answers is listed in
 * the Hono root (workers/app.ts). These tests walk app/routes.ts and the routers themselves, so
 * a route added in the wrong file, or a file moved without its route, fails here.
 *
 * workerd cannot read the file system: `import.meta.glob` (resolved by Vite when the test is
 * built) names the files that exist.
 */
import { describe, expect, it } from "vitest";
import type { Hono } from "hono";
import pages from "~/routes";
import { api } from "~workers/api";
import { root } from "~workers/app";
import { loadDefinitions } from "~workers/hosted/definitions";
import { requestBoundary } from "~workers/http/boundary";

// Every definition, loaded once for the file (the Worker loads each on its first call).
const HOSTED_DEFINITIONS = await loadDefinitions();

const FILES = new Set(Object.keys(import.meta.glob(["/app/**/*.{ts,tsx}", "/workers/**/*.ts"])));
const API_MODULES = import.meta.glob<Record<string, unknown>>(["/workers/api/*.ts", "/workers/gateway/routes.ts"], {
  eager: true,
});

interface PageEntry {
  file: string;
  path?: string;
  index?: boolean;
  children?: PageEntry[];
}

/** The folder a page's path names: its static segments joined by "-" (`/user/subscription` → `user-subscription`). */
function pageFolder(path: string): string {
  return path
    .split("/")
    .filter((segment) => segment && !segment.startsWith(":") && segment !== "*")
    .join("-");
}

/** Where the rule puts a route of app/routes.ts; layouts keep a folder named for what they guard. */
function expectedPageFile(entry: PageEntry, path: string): RegExp | string {
  if (entry.index) return "routes/home/route.tsx";
  if (entry.path === "*") return "routes/not-found/route.tsx";
  if (entry.path === undefined) return /^routes\/[a-z]+(-[a-z]+)*\/layout\.tsx$/;
  return `routes/${pageFolder(path)}/route.tsx`;
}

function walkPages(entries: PageEntry[], parent = ""): { entry: PageEntry; path: string }[] {
  return entries.flatMap((entry) => {
    const path = [parent, entry.path ?? ""].filter(Boolean).join("/");
    return [{ entry, path }, ...walkPages(entry.children ?? [], path)];
  });
}

describe("pages: app/routes.ts", () => {
  const routes = walkPages(pages as PageEntry[]);

  it("puts every page in the folder its URL names, and the file exists", () => {
    expect(routes.length).toBeGreaterThan(20);
    for (const { entry, path } of routes) {
      const expected = expectedPageFile(entry, path);
      if (typeof expected === "string") expect(entry.file, `/${path}`).toBe(expected);
      else expect(entry.file, `/${path}`).toMatch(expected);
      expect(FILES.has(`/app/${entry.file}`), `app/${entry.file} exists`).toBe(true);
    }
  });

  it("names the folder of a nested path after all its static segments", () => {
    expect(pageFolder("user/subscription")).toBe("user-subscription");
    expect(pageFolder(":type/redirect/error/:alias")).toBe("redirect-error");
    expect(pageFolder("user/verify-email/:token?")).toBe("user-verify-email");
  });

  it("has no route folder that app/routes.ts does not list", () => {
    const listed = new Set(routes.map(({ entry }) => `/app/${entry.file}`));
    const routeFiles = [...FILES].filter((file) => /^\/app\/routes\/[^/]+\/(route|layout)\.tsx$/.test(file));
    expect(routeFiles.filter((file) => !listed.has(file))).toEqual([]);
  });
});

/** The older hosted calls (`POST /api/qrcode`, …) the gateway serves beside `/api/v1`. */
const LEGACY_HOSTED_PATHS = new Set(
  HOSTED_DEFINITIONS.flatMap((definition) => definition.legacyRoutes ?? []).map((legacy) => legacy.path),
);

/**
 * The file a path under /api must be in: `/api/<name>/…` is `workers/api/<name>.ts`, but for
 * the gateway's calls and the home page's two forms (the exceptions workers/api/index.ts lists).
 */
function expectedApiFile(path: string): string {
  if (LEGACY_HOSTED_PATHS.has(path)) return "/workers/gateway/routes.ts";
  const name = path.split("/")[2] ?? "";
  if (name === "v1") return "/workers/gateway/routes.ts";
  if (name === "contact" || name === "subscribe") return "/workers/api/public.ts";
  return `/workers/api/${name}.ts`;
}

/** The modules whose exported routers registered `handler` (the index, which mounts them all, aside). */
function ownersOf(handler: unknown): string[] {
  return Object.entries(API_MODULES)
    .filter(([file]) => file !== "/workers/api/index.ts")
    .filter(([, exports]) =>
      Object.values(exports).some((value) => {
        const router = value as Partial<Hono>;
        return Array.isArray(router.routes) && router.routes.some((route) => route.handler === handler);
      }),
    )
    .map(([file]) => file);
}

describe("/api: workers/api/index.ts", () => {
  it("serves every path from the file its first segment names", () => {
    const misplaced: string[] = [];
    for (const route of api.routes) {
      const owners = ownersOf(route.handler);
      // Middleware several routers share (requireSession, body limits) says nothing of the
      // path; nor does the index's own (the request id), which runs for every call.
      if (owners.length > 1 || (owners.length === 0 && route.path === "/api/*")) continue;
      const expected = expectedApiFile(route.path);
      if (owners[0] !== expected) misplaced.push(`${route.method} ${route.path}: in ${owners[0]}, not ${expected}`);
    }
    expect(misplaced).toEqual([]);
    expect(api.routes.length).toBeGreaterThan(30);
  });

  it("keeps the paths clients call, in files that exist", () => {
    for (const route of api.routes) {
      if (route.path === "/api/*") continue;
      expect(FILES.has(expectedApiFile(route.path)), `${route.path} → ${expectedApiFile(route.path)}`).toBe(true);
    }
    // The paths clients already call stay as they were.
    const paths = new Set(api.routes.map((route) => `${route.method} ${route.path}`));
    for (const call of [
      "GET /api/admin/sidemenus",
      "GET /api/users/fetch/user-metadata",
      "POST /api/payments/paypal/generate-session",
      "POST /api/user/keys",
      "GET /api/auth/oidc/callback",
      "POST /api/qrcode",
    ]) {
      expect(paths.has(call), call).toBe(true);
    }
  });
});

/** Every path the root answers itself, and the file that serves it. */
const ROOT_FILES: Record<string, string> = {
  "/api/*": "/workers/api/index.ts",
  "/s/:alias": "/workers/hosted/urlshortener/redirect.ts",
  "/s/*": "/workers/hosted/urlshortener/redirect.ts",
  "/openapi.json": "/workers/hosted/openapi.ts",
  "/dev/oidc/*": "/workers/providers/oidc/fake-idp.ts",
  "/dev/paypal/*": "/workers/providers/paypal/fake.ts",
  "/dev/cashfree/*": "/workers/providers/cashfree/fake.ts",
  "/__bench/bare/*": "/workers/gateway/bench-route.ts",
  "/*": "/app/routes.ts",
};

describe("the Hono root: workers/app.ts", () => {
  it("lists every route that is not a page, each served from a file that exists", () => {
    const listed = root.routes.filter((route) => route.handler !== requestBoundary).map((route) => route.path);
    expect(listed.toSorted()).toEqual(Object.keys(ROOT_FILES).toSorted());
    for (const file of Object.values(ROOT_FILES)) expect(FILES.has(file), file).toBe(true);
  });

  it("ends with the pages, so every path the list above does not claim reaches React Router", () => {
    expect(root.routes.at(-1)?.path).toBe("/*");
    expect(root.routes[0]?.handler).toBe(requestBoundary);
  });
});
