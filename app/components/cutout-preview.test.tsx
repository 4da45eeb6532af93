/**
 * What the live demo shows for Remove Background: the answer over a checkerboard (a CSS
 * pattern behind the image, so transparency shows as transparency), with buttons to switch the
 * backdrop. Rendered to HTML, as the server renders the page.
 */
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
});
