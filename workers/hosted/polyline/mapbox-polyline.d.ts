// Types for the dev dependency @mapbox/polyline, which ships none. Tests only: it is the
// independent reference our encoder is compared with, and no worker code may import it.
declare module "@mapbox/polyline" {
  export function encode(coordinates: readonly (readonly [number, number])[], precision?: number): string;
  export function decode(encoded: string, precision?: number): [number, number][];
}
