/**
 * The top navigation bar (docs/product.md#top-nav): the first four menu entries, 'More API's' with the rest,
 * 'Pricing', the API search and the colour-mode switch. Below 1024 px the entries fold into
 * a panel behind a menu button.
 */
import { Menu, X } from "lucide-react";
import { useEffect, useState } from "react";
import { Link, NavLink, useLocation } from "react-router";
import { visibleMenu, type MenuItem } from "~/lib/page-meta";
import { ApiIcon } from "./api-icon";
import { ApiSearch } from "./api-search";
import { ColorModeToggle } from "./color-mode-toggle";
import { MoreMenu } from "./more-menu";

export const BAR_ENTRIES = 4;

const entryClass = ({ isActive }: { isActive: boolean }) =>
  `flex items-center gap-1.5 rounded-md px-3 py-2 text-sm font-medium hover:bg-slate-100 dark:hover:bg-slate-800 ${
    isActive ? "text-brand-600 dark:text-brand-500" : ""
  }`;

export function TopNav({ menu, activeId }: { menu: readonly MenuItem[]; activeId?: string }) {
  const shown = visibleMenu(menu);
  const inBar = shown.slice(0, BAR_ENTRIES);
  const more = shown.slice(BAR_ENTRIES);
  const [panelOpen, setPanelOpen] = useState(false);
  const location = useLocation();
  useEffect(() => setPanelOpen(false), [location.pathname]);

  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/90 backdrop-blur dark:border-slate-800 dark:bg-slate-950/90">
      <nav aria-label="Main" className="mx-auto flex max-w-7xl flex-wrap items-center gap-2 px-4 py-2">
        <Link to="/" className="mr-2 flex shrink-0 items-center" aria-label="Portico home">
          <img src="/logo.svg" alt="" width={128} height={32} className="h-8 w-auto" />
        </Link>
        <div className="ml-auto flex items-center gap-1 lg:hidden">
          <ColorModeToggle />
          <button
            type="button"
            aria-expanded={panelOpen}
            aria-controls="main-menu"
            aria-label={panelOpen ? "Close menu" : "Open menu"}
            onClick={() => setPanelOpen((open) => !open)}
            className="rounded-md p-2 hover:bg-slate-100 dark:hover:bg-slate-800"
          >
            {panelOpen ? <X aria-hidden="true" className="size-5" /> : <Menu aria-hidden="true" className="size-5" />}
          </button>
        </div>
        <div
          id="main-menu"
          className={`${panelOpen ? "flex" : "hidden"} w-full flex-col gap-2 pb-2 lg:flex lg:w-auto lg:flex-1 lg:flex-row lg:items-center lg:pb-0`}
        >
          <ul className="flex flex-col lg:flex-row lg:items-center">
            {inBar.map((item) => (
              <li key={item._id}>
                <NavLink
                  to={item.endpoint}
                  end
                  className={() => entryClass({ isActive: item._id === activeId })}
                  aria-current={item._id === activeId ? "page" : undefined}
                >
                  <ApiIcon name={item.class_name} />
                  {item.name}
                </NavLink>
              </li>
            ))}
            {more.length > 0 && (
              <li>
                <MoreMenu items={more} activeId={activeId} />
              </li>
            )}
            <li>
              <NavLink to="/user/subscription" className={entryClass}>
                Pricing
              </NavLink>
            </li>
          </ul>
          <div className="flex items-center gap-2 lg:ml-auto">
            <ApiSearch menu={menu} />
            <span className="hidden lg:block">
              <ColorModeToggle />
            </span>
          </div>
        </div>
      </nav>
    </header>
  );
}
