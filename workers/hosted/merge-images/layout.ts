/** Where each image goes on the merged canvas, from the images' sizes alone (no pixels needed). */
import { problemResult } from "~workers/hosted/definition";
import { MAX_SIDE } from "../_image/limits";
import { failure, success, type Outcome } from "../_image/outcome";
import type { MergeImagesInput } from "./schema";

export interface Size {
  width: number;
  height: number;
}

export interface Layout extends Size {
  positions: { x: number; y: number; opacity: number }[];
}

type LayoutOptions = Pick<MergeImagesInput, "layout" | "gap" | "columns" | "align" | "placements">;

const offset = (free: number, align: LayoutOptions["align"]) =>
  align === "start" ? 0 : align === "end" ? free : Math.floor(free / 2);

export function planLayout(sizes: readonly Size[], options: LayoutOptions): Outcome<Layout> {
  const { gap, align } = options;
  const widest = Math.max(...sizes.map((size) => size.width));
  const tallest = Math.max(...sizes.map((size) => size.height));
  let layout: Layout;
  switch (options.layout) {
    case "horizontal": {
      let x = 0;
      const positions = sizes.map((size) => {
        const position = { x, y: offset(tallest - size.height, align), opacity: 1 };
        x += size.width + gap;
        return position;
      });
      layout = { width: x - gap, height: tallest, positions };
      break;
    }
    case "vertical": {
      let y = 0;
      const positions = sizes.map((size) => {
        const position = { x: offset(widest - size.width, align), y, opacity: 1 };
        y += size.height + gap;
        return position;
      });
      layout = { width: widest, height: y - gap, positions };
      break;
    }
    case "grid": {
      const columns = Math.min(sizes.length, options.columns ?? Math.ceil(Math.sqrt(sizes.length)));
      const rows = Math.ceil(sizes.length / columns);
      const positions = sizes.map((size, index) => ({
        x: (index % columns) * (widest + gap) + offset(widest - size.width, align),
        y: Math.floor(index / columns) * (tallest + gap) + offset(tallest - size.height, align),
        opacity: 1,
      }));
      layout = { width: columns * widest + (columns - 1) * gap, height: rows * tallest + (rows - 1) * gap, positions };
      break;
    }
    case "overlay": {
      const base = sizes[0] ?? { width: 1, height: 1 };
      const positions = sizes.map((_, index) => options.placements?.[index] ?? { x: 0, y: 0, opacity: 1 });
      layout = { width: base.width, height: base.height, positions };
      break;
    }
  }
  if (layout.width > MAX_SIDE || layout.height > MAX_SIDE) {
    return failure(
      problemResult(
        "invalid-input",
        `The merged image would be ${layout.width}×${layout.height} pixels; the limit is ${MAX_SIDE} per side. Use smaller images, a smaller gap or another layout.`,
      ),
    );
  }
  return success(layout);
}
