/**
 * Admin pages (docs/product.md#admin): only the account whose email is ADMIN_EMAIL gets past this layout.
 * This check guards the page as a whole, not the child routes' data: a single-fetch request
 * (`/benchmarking.data?_routes=…`) runs only the loaders it names, so every admin route's own
 * loader and action call requireAdmin too.
 */
import { NavLink, Outlet } from "react-router";
import { requireAdmin } from "~/lib/session.server";
import type { Route } from "./+types/layout";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  return null;
}

const LINKS = [
  { to: "/user-api-calls", label: "Users and calls" },
  { to: "/benchmarking", label: "Benchmarking" },
  { to: "/ai/prompt-to-image", label: "Prompt to image" },
];

export default function AdminLayout() {
  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <nav aria-label="Admin" className="flex gap-2 border-b border-slate-200 pb-3 dark:border-slate-800">
        {LINKS.map((link) => (
          <NavLink
            key={link.to}
            to={link.to}
            className={({ isActive }) =>
              `rounded-md px-3 py-1.5 text-sm font-medium ${isActive ? "bg-brand-50 text-brand-700 dark:bg-slate-800 dark:text-brand-500" : "hover:bg-slate-100 dark:hover:bg-slate-800"}`
            }
          >
            {link.label}
          </NavLink>
        ))}
      </nav>
      <div className="mt-6">
        <Outlet />
      </div>
    </div>
  );
}
