import { useEffect, useState, type ReactNode } from "react";
import {
  isRouteErrorResponse,
  type ShouldRevalidateFunctionArgs,
  Links,
  Meta,
  Outlet,
  redirectDocument,
  Scripts,
  ScrollRestoration,
  useLocation,
  useRouteLoaderData,
} from "react-router";
import { getSession, serverContext, toViewer, type Viewer } from "~/lib/session.server";
import { listSideMenu } from "~workers/hosted/side-menu";
import type { Route } from "./+types/root";
import appCss from "./app.css?url";
import { Footer } from "./components/footer";
import { NotFound, RenderErrorFallback } from "./components/not-found";
import { FullScreenSpinner, GlobalLoader } from "./components/spinner";
import { StructuredData } from "./components/structured-data";
import { LazyToaster } from "./components/toaster";
import { TopNav } from "./components/top-nav";
import { REDIRECT_HOME_EVENT } from "./lib/api-client";
import { AUTH_USER_KEY, isAuthUserCurrent, readAuthUser } from "./lib/auth-user";
import { signOut } from "./lib/sign-out";
import { COLOR_MODE_SCRIPT } from "./lib/color-mode";
import { useCspNonce } from "./lib/csp-nonce";
import { isPaymentPage } from "./lib/payment-pages";
import { matchMenuItem, pageTitle, type MenuItem } from "./lib/page-meta";

export const TOAST_DURATION_MS = 5_000;

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = await getSession(request, context);
  return {
    menu: listSideMenu(),
    viewer: session ? toViewer(session, serverContext(context).config) : null,
  };
}

// The menu changes only with a deploy and the viewer only when a form signs someone in or
// out: reload on submissions, not on every navigation.
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formMethod ? defaultShouldRevalidate : false;
}

/** The path this document was loaded at; null on the server. */
const DOCUMENT_PATH = typeof window === "undefined" ? null : window.location.pathname;

/**
 * A payment page's Content-Security-Policy lets the payment SDK's hosts in, and other pages'
 * do not (workers/http/security-headers.ts). A policy belongs to the document, so going to a
 * payment page from another page loads it as a document, with its own policy; a client-side
 * navigation would keep the old one and the SDK would be refused.
 */
export const clientMiddleware: Route.ClientMiddlewareFunction[] = [
  ({ request }) => {
    const target = new URL(request.url);
    if (request.method !== "GET" || DOCUMENT_PATH === null || isPaymentPage(DOCUMENT_PATH)) return;
    if (isPaymentPage(target.pathname)) throw redirectDocument(target.pathname + target.search + target.hash);
  },
];

/**
 * The stylesheet is linked in the head, ahead of the module preloads, which <Scripts> writes in
 * the body: imported for its side effect, it came after some twenty of them, so the browser
 * queued the one file the first paint waits for behind the scripts (Lighthouse's slow 4G: the
 * home page's first paint at 2.0 s, then 0.9–1.2 s). React 19 hoisted the preloads into the head
 * and needed a `precedence` to keep the stylesheet first; Preact (decision 065) writes each
 * element where it is rendered. Inlining it would save its round trip too, at 9 KB more in every
 * document and no caching across pages (both measured for #17).
 */
export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: appCss },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: Route.MetaFunction = ({ loaderData, location }) => {
  const current = matchMenuItem(loaderData?.menu ?? [], location.pathname);
  return [
    { title: pageTitle(current) },
    { name: "description", content: current?.description ?? "Hosted APIs for developers." },
  ];
};

function useMenu(): MenuItem[] {
  return useRouteLoaderData<typeof loader>("root")?.menu ?? [];
}

/** Shown in the server's HTML until the app has loaded (it appears only after 300 ms). */
function AppLoadingOverlay() {
  const [loaded, setLoaded] = useState(false);
  useEffect(() => setLoaded(true), []);
  return loaded ? null : <FullScreenSpinner label="Loading Portico" className="appear-late" />;
}

export function Layout({ children }: { children: ReactNode }) {
  const menu = useMenu();
  const { pathname } = useLocation();
  const nonce = useCspNonce();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* The browser hides the nonce once the policy is applied: the hydrated value differs. */}
        <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: COLOR_MODE_SCRIPT }} />
        <Meta />
        {/* Styles and preloads need no nonce (the policy allows this origin's); a real one would
            differ from the browser's hidden copy at hydration, which React reports in development. */}
        <Links nonce="" />
        <StructuredData pathname={pathname} current={matchMenuItem(menu, pathname)} />
      </head>
      <body className="flex min-h-screen flex-col">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:p-2"
        >
          Skip to content
        </a>
        <noscript>
          <style>{".appear-late{display:none!important}"}</style>
        </noscript>
        <AppLoadingOverlay />
        {children}
        <LazyToaster position="top-right" duration={TOAST_DURATION_MS} richColors closeButton />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export function useViewer(): Viewer | null {
  return useRouteLoaderData<typeof loader>("root")?.viewer ?? null;
}

/**
 * Keeps the browser's `auth_user` record in step with the server's session
 * (docs/product.md#auth-user and #session-expiry): written when signed in, removed when not, and a
 * sign-out once its lifetime has passed.
 */
function useAuthUserSync(viewer: Viewer | null) {
  useEffect(() => {
    try {
      if (viewer) localStorage.setItem(AUTH_USER_KEY, JSON.stringify({ ...readAuthUser(), ...viewer.authUser }));
      else localStorage.removeItem(AUTH_USER_KEY);
    } catch {
      // Storage disabled: the cookie session still works; only the record is missing.
    }
    if (!viewer) return;
    const check = () => {
      if (!isAuthUserCurrent(readAuthUser())) void signOut();
    };
    check();
    const timer = setInterval(check, 60_000);
    return () => clearInterval(timer);
  }, [viewer]);
}

function Chrome({ children }: { children: ReactNode }) {
  const menu = useMenu();
  const { pathname } = useLocation();
  useAuthUserSync(useViewer());
  useEffect(() => {
    // A 401 from any call signs the visitor out and sends them home (docs/product.md#session-expiry).
    const goHome = () => void signOut();
    window.addEventListener(REDIRECT_HOME_EVENT, goHome);
    return () => window.removeEventListener(REDIRECT_HOME_EVENT, goHome);
  }, []);
  return (
    <>
      <TopNav menu={menu} activeId={matchMenuItem(menu, pathname)?._id} />
      <main id="main" className="flex-1">
        {children}
      </main>
      <Footer />
      <GlobalLoader />
    </>
  );
}

export default function App() {
  return (
    <Chrome>
      <Outlet />
    </Chrome>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <Chrome>
        <title>{"Page not found — Portico"}</title>
        <NotFound />
      </Chrome>
    );
  }
  // The Worker's entry refuses a form too large to read (413) or sent from another site (403)
  // before any action runs, and answers the app's own submission with words to show.
  if (isRouteErrorResponse(error) && (error.status === 403 || error.status === 413) && typeof error.data === "string") {
    return (
      <Chrome>
        <title>{"Not sent — Portico"}</title>
        <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
          <h1 className="text-3xl font-semibold">{error.status === 413 ? "That form was too large" : "Not sent"}</h1>
          <p className="mt-3 text-slate-600 dark:text-slate-400">{error.data}</p>
        </section>
      </Chrome>
    );
  }
  console.error(error);
  const detail = import.meta.env.DEV && error instanceof Error ? error.stack : undefined;
  return (
    <Chrome>
      <title>{"Something went wrong — Portico"}</title>
      <RenderErrorFallback detail={detail} />
    </Chrome>
  );
}
