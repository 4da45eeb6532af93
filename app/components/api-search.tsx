/**
 * 'Search APIs' (docs/product.md#api-search): filters the menu by name, case-insensitively, 332 ms after the
 * last keystroke; 'Home' is never a result; empty input clears the results.
 */
import { Search } from "lucide-react";
import { useId, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { Link } from "react-router";
import type { MenuItem } from "~/lib/page-meta";
import { useDebouncedValue } from "~/lib/use-debounced-value";
import { ApiIcon } from "./api-icon";

export const SEARCH_DEBOUNCE_MS = 332;

export function searchMenu(menu: readonly MenuItem[], query: string): MenuItem[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return [];
  return menu.filter((item) => item.name !== "Home" && item.name.toLowerCase().includes(needle));
}

export function ApiSearch({ menu }: { menu: readonly MenuItem[] }) {
  const [query, setQuery] = useState("");
  const debounced = useDebouncedValue(query, SEARCH_DEBOUNCE_MS);
  // An emptied box clears at once; only typing waits for the debounce.
  const results = useMemo(() => (query.trim() ? searchMenu(menu, debounced) : []), [menu, query, debounced]);
  const listRef = useRef<HTMLUListElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const listId = useId();
  const open = results.length > 0;
  const noMatch = query.trim() !== "" && debounced === query && results.length === 0;

  const links = () => [...(listRef.current?.querySelectorAll<HTMLAnchorElement>("a") ?? [])];
  const onKeyDown = (event: KeyboardEvent) => {
    const all = links();
    const index = all.indexOf(document.activeElement as HTMLAnchorElement);
    if (event.key === "ArrowDown" && all.length) {
      all[Math.min(index + 1, all.length - 1)]?.focus();
    } else if (event.key === "ArrowUp" && index >= 0) {
      if (index === 0) inputRef.current?.focus();
      else all[index - 1]?.focus();
    } else if (event.key === "Escape") {
      setQuery("");
      inputRef.current?.focus();
    } else return;
    event.preventDefault();
  };

  return (
    <div className="relative w-full lg:w-56" onKeyDown={onKeyDown}>
      <label htmlFor={`${listId}-input`} className="sr-only">
        Search APIs
      </label>
      <Search
        aria-hidden="true"
        className="pointer-events-none absolute left-2.5 top-1/2 size-4 -translate-y-1/2 text-slate-400"
      />
      <input
        ref={inputRef}
        id={`${listId}-input`}
        type="search"
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        autoComplete="off"
        placeholder="Search APIs"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        className="w-full rounded-md border border-slate-300 bg-white py-1.5 pl-8 pr-2 text-sm placeholder:text-slate-400 dark:border-slate-700 dark:bg-slate-900"
      />
      <ul
        ref={listRef}
        id={listId}
        aria-label="Matching APIs"
        hidden={!open}
        style={{ maxHeight: 200 }}
        className="absolute left-0 right-0 z-40 mt-1 overflow-y-auto rounded-lg border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900"
      >
        {results.map((item) => (
          <li key={item._id}>
            <Link
              to={item.endpoint}
              onClick={() => setQuery("")}
              className="flex items-center gap-2 rounded-md px-3 py-2 text-sm hover:bg-slate-100 focus:bg-slate-100 dark:hover:bg-slate-800 dark:focus:bg-slate-800"
            >
              <ApiIcon name={item.class_name} />
              {item.name}
            </Link>
          </li>
        ))}
      </ul>
      <p role="status" className="sr-only">
        {open ? `${results.length} APIs found` : noMatch ? "No APIs found" : ""}
      </p>
    </div>
  );
}
