/**
 * The encoder alone, without the package's canvas/PNG/terminal renderers (and their `fs` and
 * pngjs imports): the Worker only needs the module matrix. Same function as `qrcode`'s `create`.
 */
declare module "qrcode/lib/core/qrcode.js" {
  export { create } from "qrcode";
}

/** Centres (row, column) of a version's alignment patterns, those under the finders left out. */
declare module "qrcode/lib/core/alignment-pattern.js" {
  export function getPositions(version: number): Array<[number, number]>;
}
