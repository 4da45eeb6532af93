/**
 * What `react` resolves to (aliases.ts): Preact's compatibility layer, plus the one hook React
 * Router imports that it lacks. RouterProvider calls `useOptimistic(state)` on every render and
 * uses its setter only with `useTransitions` on, which this app never sets, so handing the state
 * back unchanged is React's own behaviour outside a transition.
 */
// @ts-expect-error preact/compat's types are one `export =` namespace, which TypeScript will not
// re-export with `export *`; the bundler reads the module's real named exports. The app is typed
// by @types/react, not by this file.
export * from "preact/compat";
export { default } from "preact/compat";

export function useOptimistic<State>(passthrough: State): [State, (action: unknown) => void] {
  return [passthrough, ignoreOptimisticUpdate];
}

function ignoreOptimisticUpdate(): void {
  throw new Error("useOptimistic's setter needs React Router's useTransitions, which Preact does not run");
}
