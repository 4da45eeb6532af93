/**
 * 'More API's': the menu entries after the first four, in a dropdown that works by mouse and
 * keyboard (Enter/Space/ArrowDown open it, arrows move, Escape closes and returns focus).
 */
import { ChevronDown } from "lucide-react";
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { Link } from "react-router";
import type { MenuItem } from "~/lib/page-meta";
import { ApiIcon } from "./api-icon";

export function MoreMenu({ items, activeId }: { items: MenuItem[]; activeId?: string }) {
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const listId = useId();

  useEffect(() => {
    if (!open) return;
    const closeOnOutsideClick = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", closeOnOutsideClick);
    return () => document.removeEventListener("pointerdown", closeOnOutsideClick);
  }, [open]);

  const links = () => [...(listRef.current?.querySelectorAll<HTMLAnchorElement>("a") ?? [])];

  const focusLink = (index: number) => {
    const all = links();
    all[(index + all.length) % all.length]?.focus();
  };

  const onButtonKeyDown = (event: KeyboardEvent) => {
    if (event.key === "ArrowDown") {
      event.preventDefault();
      setOpen(true);
      requestAnimationFrame(() => focusLink(0));
    }
  };

  const onListKeyDown = (event: KeyboardEvent) => {
    const index = links().indexOf(document.activeElement as HTMLAnchorElement);
    if (event.key === "ArrowDown") focusLink(index + 1);
    else if (event.key === "ArrowUp") focusLink(index - 1);
    else if (event.key === "Home") focusLink(0);
    else if (event.key === "End") focusLink(-1);
    else if (event.key === "Escape") {
      setOpen(false);
      buttonRef.current?.focus();
    } else return;
    event.preventDefault();
  };

  const isActive = items.some((item) => item._id === activeId);

  return (
    <div ref={rootRef} className="relative">
      <button
        ref={buttonRef}
        type="button"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((value) => !value)}
        onKeyDown={onButtonKeyDown}
        className={`flex items-center gap-1 rounded-md px-3 py-2 text-sm font-medium hover:bg-slate-100 dark:hover:bg-slate-800 ${
          isActive ? "text-brand-600 dark:text-brand-500" : ""
        }`}
      >
        More API's
        <ChevronDown aria-hidden="true" className={`size-4 transition-transform ${open ? "rotate-180" : ""}`} />
      </button>
      <ul
        ref={listRef}
        id={listId}
        hidden={!open}
        onKeyDown={onListKeyDown}
        style={{ maxHeight: "80vh" }}
        className="absolute right-0 z-40 mt-2 w-72 overflow-y-auto rounded-lg border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900"
      >
        {/* Drawn when open only: closed, the entries and their icons were 12 KB of every page's
            HTML that no one sees (the docs index and the home carousel link every API too). */}
        {open &&
          items.map((item) => (
            <li key={item._id}>
              <Link
                to={item.endpoint}
                onClick={() => setOpen(false)}
                aria-current={item._id === activeId ? "page" : undefined}
                className="flex items-center gap-2 rounded-md px-3 py-2 text-sm hover:bg-slate-100 aria-[current=page]:bg-brand-50 aria-[current=page]:text-brand-700 dark:hover:bg-slate-800 dark:aria-[current=page]:bg-slate-800 dark:aria-[current=page]:text-brand-500"
              >
                <ApiIcon name={item.class_name} />
                {item.name}
              </Link>
            </li>
          ))}
      </ul>
    </div>
  );
}
