/**
 * The page's list of the admin's images (decision 063): the loader's first page, and older
 * pages loaded below it by the last image shown. A new picture moves every page down by one;
 * the list must then neither lose the image pushed off the first page nor show one twice, and
 * a page answered twice (a double click) is appended once.
 */
import { describe, expect, it } from "vitest";
import type { LinkedAiImage } from "~workers/platform/ai-images";
import { shownHistory, withOlderPage, type HistoryPage } from "./history";

const image = (id: string) => ({ id }) as LinkedAiImage;
const ids = (page: { images: LinkedAiImage[] }) => page.images.map((shown) => shown.id);
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `a${from + i}`);
const page = (names: string[], more: boolean): HistoryPage => ({
  images: names.map(image),
  next: more ? (names.at(-1) ?? null) : null,
});

describe("the admin's image list", () => {
  it("shows the first page alone, then continues it after its last image", () => {
    const first = page(range(0, 24), true);
    expect(shownHistory(first, null)).toEqual(first);
    const older = withOlderPage(first, null, "a23", page(range(24, 27), false));
    const shown = shownHistory(first, older);
    expect(ids(shown)).toEqual(range(0, 27));
    expect(shown.next).toBeNull();
  });

  it("after a new picture moves the first page, loses no image and repeats none", () => {
    const before = page(range(0, 24), true);
    const older = withOlderPage(before, null, "a23", page(range(24, 48), true));
    // The loader's page after the new picture: it, then the first 23 of before.
    const after = page(["new", ...range(0, 23)], true);
    const shown = shownHistory(after, older);
    // a23 left the first page: the older pages start again after a22, so it is the next one shown.
    expect(ids(shown)).toEqual(["new", ...range(0, 23)]);
    expect(shown.next).toBe("a22");
    const continued = shownHistory(after, withOlderPage(after, older, "a22", page(range(23, 47), true)));
    expect(ids(continued)).toEqual(["new", ...range(0, 47)]);
    expect(new Set(ids(continued)).size).toBe(continued.images.length);
  });

  it("appends a page answered twice only once, and drops one asked for a list that has moved since", () => {
    const first = page(range(0, 24), true);
    const once = withOlderPage(first, null, "a23", page(range(24, 48), true));
    const twice = withOlderPage(first, once, "a23", page(range(24, 48), true));
    expect(ids(shownHistory(first, twice))).toEqual(range(0, 48));
    const moved = page(["new", ...range(0, 23)], true);
    expect(shownHistory(moved, withOlderPage(moved, null, "a23", page(range(24, 48), true)))).toEqual(moved);
  });
});
