/**
 * The floating Refer & Earn button (docs/product.md#refer-and-earn) stays over the page while it
 * scrolls, so whatever passes under it must not be something a person can click (issue 17: it
 * covered the carousel's next arrow at 1280×800 and 'Browse the docs' at 375 px).
 */
import { expect, test } from "vitest";
import { openPage, useBrowser } from "./browser";

const browser = useBrowser();

test.each([360, 375, 414, 768, 1024, 1280])(
  "at %i×800 the Refer & Earn button covers no link, button or field anywhere in the page's scroll",
  async (width) => {
    const page = await browser.newPage({ width, height: 800 });
    await openPage(page, "/");
    // The carousel re-measures after hydration; let its layout settle before measuring.
    await page.locator('[aria-roledescription="slide"][data-in-view="true"]').first().waitFor();
    const overlaps = await page.evaluate(() => {
      const fab = [...document.querySelectorAll("button")].find((b) => b.textContent?.includes("Refer & Earn"));
      if (!fab) return ["no Refer & Earn button"];
      const found = new Set<string>();
      const controls = "a[href], button, input, select, textarea, summary, [role='button'], [tabindex]";
      const maxScroll = document.documentElement.scrollHeight - window.innerHeight;
      for (let y = 0; y <= maxScroll + 20; y += 20) {
        window.scrollTo({ top: Math.min(y, maxScroll), behavior: "instant" });
        const own = fab.getBoundingClientRect();
        for (const element of document.querySelectorAll<HTMLElement>(controls)) {
          if (element === fab || fab.contains(element) || element.closest("dialog:not([open]), [inert]")) continue;
          if (!element.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
          const box = element.getBoundingClientRect();
          if (box.width === 0 || box.height === 0) continue;
          const intersects =
            box.left < own.right && box.right > own.left && box.top < own.bottom && box.bottom > own.top;
          if (intersects) {
            const name = element.getAttribute("aria-label") ?? element.textContent?.trim().slice(0, 40) ?? "";
            found.add(`${element.tagName.toLowerCase()} '${name}'`);
          }
        }
      }
      return [...found];
    });
    expect(overlaps).toEqual([]);
  },
);
