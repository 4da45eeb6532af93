/**
 * Who is asking, for loaders and actions, and the route guards (docs/product.md#redirects and #roles): private
 * pages need a session, public-only pages need none, admin pages need the ADMIN_EMAIL account with
 * its address proven (`workers/platform/roles.ts`).
 * A guard throws a redirect; the page never renders for the wrong visitor.
 */
import { redirect, type RouterContextProvider } from "react-router";
import { readConfig, type Config } from "~workers/config";
import { cloudflareContext } from "~workers/context";
import { isAdmin, isPrivileged } from "~workers/platform/roles";
import { readSession, type Session } from "~workers/platform/sessions";
import { authUserFields, type AuthUserFields } from "~workers/platform/sign-in";

export interface Viewer {
  authUser: AuthUserFields;
  isAdmin: boolean;
  isPrivileged: boolean;
}

export function serverContext(context: Readonly<RouterContextProvider>): {
  env: Env;
  ctx: ExecutionContext;
  config: Config;
} {
  const { env, ctx } = context.get(cloudflareContext);
  return { env, ctx, config: readConfig(env) };
}

export async function getSession(request: Request, context: Readonly<RouterContextProvider>): Promise<Session | null> {
  const { env, config } = serverContext(context);
  return readSession(env.DB, config.SESSION_SECRET, request);
}

export function toViewer(session: Session, config: Config): Viewer {
  return {
    authUser: authUserFields(session.user, session),
    isAdmin: isAdmin(config, session.user),
    isPrivileged: isPrivileged(config, session.user),
  };
}

export async function requireSession(request: Request, context: Readonly<RouterContextProvider>): Promise<Session> {
  const session = await getSession(request, context);
  if (!session) throw redirect("/");
  return session;
}

export async function requireAnonymous(request: Request, context: Readonly<RouterContextProvider>): Promise<void> {
  if (await getSession(request, context)) throw redirect("/");
}

export async function requireAdmin(request: Request, context: Readonly<RouterContextProvider>): Promise<Session> {
  const session = await getSession(request, context);
  if (!session || !isAdmin(serverContext(context).config, session.user)) throw redirect("/");
  return session;
}
