/**
 * Google's encoded polyline algorithm format
 * (https://developers.google.com/maps/documentation/utilities/polylinealgorithm): each
 * coordinate is rounded to 10^-precision degrees, stored as the difference from the previous
 * point, zigzag-signed, and written in 5-bit chunks offset by 63 with 0x20 as "more follows".
 * Arithmetic stays in safe integers rather than 32-bit shifts: at precision 10 a longitude is
 * up to 1.8 × 10^12 units, far past 2^31, and a hostile string of long chunk runs cannot wrap
 * around into a plausible coordinate.
 */
export type LatLng = readonly [lat: number, lng: number];
/** Decimal places, an integer 1–10 (the schema checks the range). */
export type Precision = number;

type Decoded = { ok: true; points: [number, number][] } | { ok: false; message: string };

/**
 * The largest zigzagged delta, 2 × 360 × 10^10 at precision 10, is under 2^43: nine chunks.
 * Nine chunks hold less than 2^45, so a value read is always a safe integer; at lower
 * precisions a longer-than-needed value lands off the globe and is refused there.
 */
const MAX_CHUNKS_PER_VALUE = 9;

/** Rounds half away from zero, as Google's reference does, so -0.000005 and 0.000005 mirror. */
function toUnits(degrees: number, factor: number): number {
  return Math.sign(degrees) * Math.round(Math.abs(degrees) * factor);
}

function encodeValue(delta: number): string {
  let value = delta < 0 ? -2 * delta - 1 : 2 * delta;
  let out = "";
  while (value >= 0x20) {
    out += String.fromCharCode((0x20 | (value % 0x20)) + 63);
    value = Math.floor(value / 0x20);
  }
  return out + String.fromCharCode(value + 63);
}

export function encodePolyline(points: readonly LatLng[], precision: Precision): string {
  const factor = 10 ** precision;
  let previousLat = 0;
  let previousLng = 0;
  let out = "";
  for (const [lat, lng] of points) {
    const unitsLat = toUnits(lat, factor);
    const unitsLng = toUnits(lng, factor);
    out += encodeValue(unitsLat - previousLat) + encodeValue(unitsLng - previousLng);
    previousLat = unitsLat;
    previousLng = unitsLng;
  }
  return out;
}

export function decodePolyline(encoded: string, precision: Precision): Decoded {
  const factor = 10 ** precision;
  const values: number[] = [];
  let index = 0;
  while (index < encoded.length) {
    let result = 0;
    let multiplier = 1;
    let chunks = 0;
    for (;;) {
      if (index >= encoded.length) {
        return {
          ok: false,
          message: `the polyline ends in the middle of a value (at character ${index}): is it truncated?`,
        };
      }
      const code = encoded.charCodeAt(index) - 63;
      if (code < 0 || code > 63) {
        return {
          ok: false,
          message: `invalid character ${JSON.stringify(encoded.charAt(index))} at position ${index}`,
        };
      }
      index++;
      chunks++;
      if (chunks > MAX_CHUNKS_PER_VALUE) return { ok: false, message: `a value at position ${index} is too long` };
      result += (code % 0x20) * multiplier;
      multiplier *= 0x20;
      if (code < 0x20) break;
    }
    values.push(result % 2 === 1 ? -(result + 1) / 2 : result / 2);
  }
  if (values.length % 2 !== 0) {
    return {
      ok: false,
      message: "the polyline holds an odd number of values (a latitude without its longitude): is it truncated?",
    };
  }
  const points: [number, number][] = [];
  let lat = 0;
  let lng = 0;
  for (let i = 0; i < values.length; i += 2) {
    lat += values[i] ?? 0;
    lng += values[i + 1] ?? 0;
    // Dividing two exact integers gives the double nearest the decimal, so 4325200 / 1e5 is 43.252.
    const point: [number, number] = [lat / factor, lng / factor];
    if (Math.abs(point[0]) > 90 || Math.abs(point[1]) > 180) {
      return {
        ok: false,
        message: `point ${i / 2 + 1} decodes to (${point[0]}, ${point[1]}), outside the globe: is the precision right?`,
      };
    }
    points.push(point);
  }
  return { ok: true, points };
}
