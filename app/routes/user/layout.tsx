/**
 * The signed-in area (docs/product.md#sidebar): every page under it needs a session; the
 * sidebar collapses with its toggle and starts open.
 */
import { CreditCard, KeyRound, LogOut, PanelLeftClose, PanelLeftOpen, Settings, UserRound } from "lucide-react";
import { useState } from "react";
import { Link, NavLink, Outlet } from "react-router";
import { Avatar } from "~/components/avatar";
import { signOut } from "~/lib/sign-out";
import { requireSession } from "~/lib/session.server";
import { displayName } from "~workers/platform/users";
import type { Route } from "./+types/layout";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireSession(request, context);
  return { username: displayName(user), email: user.email, avatarUrl: user.avatarUrl };
}

const ITEMS = [
  { to: "/user/dashboard", label: "Profile", icon: UserRound },
  { to: "/user/apikey", label: "API Key", icon: KeyRound },
  { to: "/user/settings", label: "Settings", icon: Settings },
  { to: "/user/transactions", label: "Payments", icon: CreditCard },
];

export default function UserLayout({ loaderData }: Route.ComponentProps) {
  const [open, setOpen] = useState(true);
  const { username, avatarUrl } = loaderData;
  const itemClass = ({ isActive }: { isActive: boolean }) =>
    `flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium hover:bg-slate-100 dark:hover:bg-slate-800 ${
      isActive ? "bg-brand-50 text-brand-700 dark:bg-slate-800 dark:text-brand-500" : ""
    }`;
  return (
    <div className="mx-auto flex max-w-7xl gap-6 px-4 py-8">
      <aside aria-label="Account" className={`shrink-0 transition-[width] duration-200 ${open ? "w-52" : "w-12"}`}>
        <button
          type="button"
          onClick={() => setOpen((value) => !value)}
          aria-expanded={open}
          aria-controls="account-menu"
          aria-label={open ? "Collapse the account menu" : "Expand the account menu"}
          className="rounded-md p-2 hover:bg-slate-100 dark:hover:bg-slate-800"
        >
          {open ? (
            <PanelLeftClose aria-hidden="true" className="size-5" />
          ) : (
            <PanelLeftOpen aria-hidden="true" className="size-5" />
          )}
        </button>
        <nav id="account-menu" className="mt-2 flex flex-col gap-1">
          {/* Named by its content, not aria-label: a label that differs from the visible name
              (the avatar's letter, the name) fails WCAG's label-in-name (axe, Lighthouse). */}
          <Link to="/" className="mb-2 flex items-center gap-3 px-1 py-1">
            <Avatar url={avatarUrl} name={username} size={open ? 40 : 32} />
            <span className={open ? "truncate text-sm font-semibold" : "sr-only"}>{username}</span>
            <span className="sr-only">: go to the home page</span>
          </Link>
          {ITEMS.map(({ to, label, icon: Icon }) => (
            <NavLink key={to} to={to} className={itemClass} aria-label={open ? undefined : label} title={label}>
              <Icon aria-hidden="true" className="size-5 shrink-0" />
              {open && label}
            </NavLink>
          ))}
          <button
            type="button"
            onClick={() => void signOut()}
            className="flex items-center gap-3 rounded-md px-3 py-2 text-left text-sm font-medium text-red-600 hover:bg-red-50 dark:text-red-400 dark:hover:bg-slate-800"
            aria-label={open ? undefined : "Sign Out"}
            title="Sign Out"
          >
            <LogOut aria-hidden="true" className="size-5 shrink-0" />
            {open && "Sign Out"}
          </button>
        </nav>
      </aside>
      <div className="min-w-0 flex-1">
        <Outlet />
      </div>
    </div>
  );
}
