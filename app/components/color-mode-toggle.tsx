import { Moon, Sun } from "lucide-react";
import { useEffect, useState } from "react";
import { applyColorMode, readColorMode, type ColorMode } from "~/lib/color-mode";

export function ColorModeToggle() {
  // The server renders light; the real mode is read after hydration (the inline head script
  // has already painted it), so server and client markup agree.
  const [mode, setMode] = useState<ColorMode>("light");
  useEffect(() => setMode(readColorMode()), []);
  const next: ColorMode = mode === "dark" ? "light" : "dark";
  return (
    <button
      type="button"
      aria-label={`Switch to ${next} mode`}
      title={`Switch to ${next} mode`}
      onClick={() => {
        applyColorMode(next);
        setMode(next);
      }}
      className="rounded-md p-2 hover:bg-slate-100 dark:hover:bg-slate-800"
    >
      {mode === "dark" ? <Sun aria-hidden="true" className="size-5" /> : <Moon aria-hidden="true" className="size-5" />}
    </button>
  );
}
