/**
 * The larger list of colour names: the "best of" selection (4,961 names) of David Aerne's
 * color-name-list, MIT-licensed, whose names are chosen for being good names rather than for
 * covering every value. The full list (about 30,000) would add over a megabyte to the worker for
 * names few callers want; this one adds about 200 kB.
 */
import { colornames } from "color-name-list/bestof";

/** How the answer names the list, with the version its data comes from. */
export const EXTENDED_LIST_NAME = "color-name-list 14.51.0, best of (MIT)";

export const EXTENDED_NAMED_COLORS: readonly (readonly [name: string, hex: string])[] = colornames.map(
  ({ name, hex }) => [name, hex.toLowerCase()] as const,
);
