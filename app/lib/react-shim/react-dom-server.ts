/**
 * What `react-dom/server` resolves to (aliases.ts). preact/compat/server would do, but it also
 * pulls preact-render-to-string's Node stream entry, which the Worker does not need.
 */
export { renderToString, renderToString as renderToStaticMarkup } from "preact-render-to-string";
export { renderToReadableStream } from "preact-render-to-string/stream";
