/**
 * Matches the current path against the menu's endpoints (docs/product.md#page-meta): the
 * match is highlighted in the bar and names the page's title and description.
 */
import type { MetaDescriptor } from "react-router";
import { SITE } from "./site";

export interface MenuItem {
  _id: string;
  name: string;
  endpoint: string;
  class_name: string;
  description: string;
}

/** Entries the bar never shows (docs/product.md#top-nav). */
const HIDDEN_NAME_PARTS = ["Nothing", "File-to-Text"];

export function visibleMenu(menu: readonly MenuItem[]): MenuItem[] {
  return menu.filter((item) => !HIDDEN_NAME_PARTS.some((part) => item.name.includes(part)));
}

export function matchMenuItem(menu: readonly MenuItem[], pathname: string): MenuItem | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname;
  return menu.find((item) => item.endpoint === path);
}

export function pageTitle(item: MenuItem | undefined): string {
  if (!item || item.endpoint === "/") return `${SITE.name} — ${SITE.tagline}`;
  return `${item.name} API — ${SITE.name}`;
}

export function titled(title: string): string {
  return `${title} — ${SITE.name}`;
}

/**
 * A page's title and description. A route's `meta` replaces the root's whole, description
 * included, so a page that named only its title went without one (Lighthouse's SEO audit, and
 * the snippet a search engine shows); `noindex` keeps a private or one-use page out of results.
 */
export function pageMeta(title: string, description: string, { noindex = false } = {}): MetaDescriptor[] {
  return [
    { title: titled(title) },
    { name: "description", content: description },
    ...(noindex ? [{ name: "robots", content: "noindex" }] : []),
  ];
}
