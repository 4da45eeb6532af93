import { useEffect, useState, type ReactNode } from "react";
import {
  isRouteErrorResponse,
  type ShouldRevalidateFunctionArgs,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useRouteLoaderData,
} from "react-router";
import { Toaster } from "sonner";
import { getSession, serverContext, toViewer, type Viewer } from "~/lib/session.server";
import { listSideMenu } from "~workers/hosted/side-menu";
import type { Route } from "./+types/root";
import "./app.css";
import { Footer } from "./components/footer";
import { NotFound, RenderErrorFallback } from "./components/not-found";
import { FullScreenSpinner, GlobalLoader } from "./components/spinner";
import { StructuredData } from "./components/structured-data";
import { TopNav } from "./components/top-nav";
import { REDIRECT_HOME_EVENT } from "./lib/api-client";
import { AUTH_USER_KEY, isAuthUserCurrent, readAuthUser } from "./lib/auth-user";
import { signOut } from "./lib/sign-out";
import { COLOR_MODE_SCRIPT } from "./lib/color-mode";
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

export const links: Route.LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

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
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <script dangerouslySetInnerHTML={{ __html: COLOR_MODE_SCRIPT }} />
        <Meta />
        <Links />
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
        <Toaster position="top-right" duration={TOAST_DURATION_MS} richColors closeButton />
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export function useViewer(): Viewer | null {
  return useRouteLoaderData<typeof loader>("root")?.viewer ?? null;
}

/**
 * Keeps the browser's `auth_user` record in step with the server's session (spec §3, §4):
 * written when signed in, removed when not, and a sign-out once its lifetime has passed.
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
    // Spec §4: a 401 from any call signs the visitor out and sends them home.
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
  console.error(error);
  const detail = import.meta.env.DEV && error instanceof Error ? error.stack : undefined;
  return (
    <Chrome>
      <title>{"Something went wrong — Portico"}</title>
      <RenderErrorFallback detail={detail} />
    </Chrome>
  );
}
