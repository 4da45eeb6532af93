/**
 * Pages render with Preact through preact/compat instead of React (docs/decisions/065): on the
 * server (app/entry.server.tsx), in the browser and in unit tests, so the HTML, the hydrating
 * tree and what the tests render come from one renderer. React DOM alone was 67 KB gzip of the
 * home page's 132; Preact and its compat layer are about 12. The app and React Router keep
 * importing `react`; these aliases, used by vite.config.ts and vitest.config.ts, are the one
 * place that says what that means. Types still come from @types/react.
 */
import path from "node:path";
import type { Alias } from "vite";

const shim = (file: string) => path.join(import.meta.dirname, file);

export const preactAliases: Alias[] = [
  { find: /^react$/, replacement: shim("react.ts") },
  { find: /^react\/jsx-runtime$/, replacement: "preact/compat/jsx-runtime" },
  { find: /^react\/jsx-dev-runtime$/, replacement: "preact/compat/jsx-dev-runtime" },
  { find: /^react-dom$/, replacement: "preact/compat" },
  { find: /^react-dom\/client$/, replacement: "preact/compat/client" },
  { find: /^react-dom\/server$/, replacement: shim("react-dom-server.ts") },
];
