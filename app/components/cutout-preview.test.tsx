/**
 * What the live demo shows for Remove Background: the answer over a checkerboard (a CSS
 * pattern behind the image, so transparency shows as transparency), with buttons to switch the
 * backdrop. Rendered to HTML, as the server renders the page, and in a DOM (linkedom) to press
 * the buttons.
 */
import { parseHTML } from "linkedom";
// React's `act` is not in preact/compat; Preact's own flushes renders and effects the same way.
import { act } from "preact/test-utils";
import { createRoot } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CutoutPreview } from "./cutout-preview";

describe("cut-out preview", () => {
  it("shows the cut-out over a checkerboard pattern, with the backdrop buttons", () => {
    const html = renderToString(<CutoutPreview src="blob:https://portico.test/cut" />);
    expect(html).toMatch(/data-testid="cutout-preview" data-backdrop="checkerboard"/);
    // The checkerboard is a background pattern behind the image, not painted into it.
    expect(html).toMatch(/style="[^"]*background-image:conic-gradient\(#cbd5e1 25%, transparent 0 50%/);
    expect(html).toMatch(/background-size:16px 16px/);
    expect(html).toContain('src="blob:https://portico.test/cut"');
    for (const label of ["Checkerboard", "Black", "White"]) expect(html).toContain(`>${label}</button>`);
    expect(html).toMatch(/aria-pressed="true"[^>]*>Checkerboard</);
  });

  it("switches the backdrop when a button is pressed: Black, then White, then the checkerboard again", async () => {
    const { window, document } = parseHTML("<!doctype html><html><body><div id=root></div></body></html>");
    const globals = globalThis as Record<string, unknown>;
    const saved = { window: globals.window, document: globals.document, act: globals.IS_REACT_ACT_ENVIRONMENT };
    Object.assign(globals, { window, document, IS_REACT_ACT_ENVIRONMENT: true });
    try {
      const container = document.getElementById("root")!;
      const root = createRoot(container as unknown as Element);
      await act(async () => root.render(<CutoutPreview src="blob:https://portico.test/cut" />));
      const preview = () => container.querySelector('[data-testid="cutout-preview"]')!;
      const press = async (label: string) => {
        const button = [...container.querySelectorAll("button")].find((element) => element.textContent === label)!;
        await act(async () => {
          button.dispatchEvent(new window.Event("click", { bubbles: true }));
        });
      };
      expect(preview().getAttribute("data-backdrop")).toBe("checkerboard");
      await press("Black");
      expect(preview().getAttribute("data-backdrop")).toBe("black");
      expect(preview().getAttribute("style")).toMatch(/background-color:\s*#000000/);
      expect(preview().getAttribute("style")).not.toMatch(/conic-gradient/);
      expect(container.querySelector('button[aria-pressed="true"]')!.textContent).toBe("Black");
      await press("White");
      expect(preview().getAttribute("data-backdrop")).toBe("white");
      expect(preview().getAttribute("style")).toMatch(/background-color:\s*#ffffff/);
      await press("Checkerboard");
      expect(preview().getAttribute("style")).toMatch(/conic-gradient/);
      await act(async () => root.unmount());
    } finally {
      Object.assign(globals, { window: saved.window, document: saved.document, IS_REACT_ACT_ENVIRONMENT: saved.act });
    }
  });
});
