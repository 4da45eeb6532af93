/**
 * Matches the current path against the menu's endpoints (docs/product.md#page-meta): the
 * match is highlighted in the bar and names the page's title and description.
 */
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
