/**
 * Light/dark colour mode (docs/product.md#colour-mode): light at first, the system preference ignored, the
 * choice kept in local storage. The inline script below runs before the first paint so a
 * dark-mode reader never sees a light flash.
 */
export type ColorMode = "light" | "dark";
export const COLOR_MODE_KEY = "color-mode";

export const COLOR_MODE_SCRIPT = `try{if(localStorage.getItem(${JSON.stringify(COLOR_MODE_KEY)})==="dark")document.documentElement.classList.add("dark")}catch(e){}`;

export function readColorMode(): ColorMode {
  return document.documentElement.classList.contains("dark") ? "dark" : "light";
}

export function applyColorMode(mode: ColorMode): void {
  document.documentElement.classList.toggle("dark", mode === "dark");
  document.documentElement.style.colorScheme = mode;
  try {
    localStorage.setItem(COLOR_MODE_KEY, mode);
  } catch {
    // Storage can be disabled (private mode, policy): the choice then lasts for this page.
  }
}
