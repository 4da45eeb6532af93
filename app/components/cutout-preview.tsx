/**
 * Remove Background's answer in the live demo: the cut-out over a checkerboard, the usual sign
 * of transparency, so the removed background shows as removed (an `<img>` on the page's white
 * would look unchanged). The backdrop can be switched to black or white to judge the edge.
 */
import { useState } from "react";

const BACKDROPS = {
  checkerboard: {
    label: "Checkerboard",
    style: {
      backgroundColor: "#f8fafc",
      backgroundImage: "conic-gradient(#cbd5e1 25%, transparent 0 50%, #cbd5e1 0 75%, transparent 0)",
      backgroundSize: "16px 16px",
    },
  },
  black: { label: "Black", style: { backgroundColor: "#000000" } },
  white: { label: "White", style: { backgroundColor: "#ffffff" } },
} as const;

type Backdrop = keyof typeof BACKDROPS;

export function CutoutPreview({ src }: { src: string }) {
  const [backdrop, setBackdrop] = useState<Backdrop>("checkerboard");
  return (
    <figure className="space-y-2">
      <div
        data-testid="cutout-preview"
        data-backdrop={backdrop}
        className="inline-block rounded border border-slate-200 dark:border-slate-800"
        style={BACKDROPS[backdrop].style}
      >
        <img src={src} alt="The cut-out the API answered" className="block max-h-96 max-w-full" />
      </div>
      <figcaption className="flex flex-wrap items-center gap-2 text-xs text-slate-600 dark:text-slate-400">
        <span>Transparent areas show the backdrop:</span>
        {(Object.keys(BACKDROPS) as Backdrop[]).map((name) => (
          <button
            key={name}
            type="button"
            aria-pressed={backdrop === name}
            onClick={() => setBackdrop(name)}
            className="rounded border border-slate-300 px-2 py-0.5 aria-pressed:bg-slate-200 dark:border-slate-700 dark:aria-pressed:bg-slate-700"
          >
            {BACKDROPS[name].label}
          </button>
        ))}
      </figcaption>
    </figure>
  );
}
