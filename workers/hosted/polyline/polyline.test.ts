import * as reference from "@mapbox/polyline";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  callOperation,
  expectExampleIsReal,
  expectJson,
  expectNeverThrows,
  expectProblem,
  findOperation,
} from "../_data/operation-test-helpers";
import { definition } from "./index";

const polyline = findOperation(definition, "encodeOrDecodePolyline");

/** Google's published example (developers.google.com/maps/documentation/utilities/polylinealgorithm). */
const GOOGLE_POINTS = [
  [38.5, -120.2],
  [40.7, -120.95],
  [43.252, -126.453],
];
const GOOGLE_POLYLINE = "_p~iF~ps|U_ulLnnqC_mqNvxq`@";

async function run(raw: Record<string, unknown>): Promise<unknown> {
  const body = expectJson(await callOperation(polyline, raw)) as { success: number; data: unknown };
  expect(body.success).toBe(1);
  return body.data;
}

describe("polyline: Google's test vector", () => {
  it("encodes the published points to the published string", async () => {
    expect(await run({ type: "encode", input: GOOGLE_POINTS })).toBe(GOOGLE_POLYLINE);
  });

  it("decodes the published string to the published points", async () => {
    expect(await run({ type: "decode", input: GOOGLE_POLYLINE })).toEqual(GOOGLE_POINTS);
  });

  it("takes { lat, lng } objects as well as pairs", async () => {
    const objects = GOOGLE_POINTS.map(([lat, lng]) => ({ lat, lng }));
    expect(await run({ type: "encode", input: objects })).toBe(GOOGLE_POLYLINE);
  });

  it("encodes Google's single-value walk-through, -179.9832104, as \`~oia@", async () => {
    // The page encodes this one value; as a longitude after latitude 0 ("?") it is the same chunk run.
    expect(await run({ type: "encode", input: [[0, -179.9832104]] })).toBe("?`~oia@");
  });

  it("serves the older `POST /api/polyline` shape at precision 5", async () => {
    const legacy = definition.legacyRoutes?.find((route) => route.path === "/api/polyline");
    expect(legacy).toMatchObject({ method: "POST", operationId: polyline.id });
    const adapted = legacy?.adapt({ input: GOOGLE_POLYLINE, type: "decode" }) ?? {};
    expect(adapted).toEqual({ input: GOOGLE_POLYLINE, type: "decode", precision: 5 });
    expect(await run(adapted)).toEqual(GOOGLE_POINTS);
  });
});

describe("polyline: precision 6", () => {
  const points = [
    [52.520008, 13.404954],
    [48.856613, 2.352222],
    [-33.86882, 151.209296],
  ];

  it("round-trips six-decimal coordinates exactly", async () => {
    const encoded = await run({ type: "encode", input: points, precision: 6 });
    expect(encoded).not.toBe(await run({ type: "encode", input: points }));
    expect(await run({ type: "decode", input: encoded, precision: 6 })).toEqual(points);
  });

  it("keeps five decimals at precision 5, rounding half away from zero", async () => {
    const encoded = await run({ type: "encode", input: [[0.000005, -0.000005]] });
    expect(await run({ type: "decode", input: encoded })).toEqual([[0.00001, -0.00001]]);
  });

  it("any points on the 10^-precision grid survive encode then decode", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(5 as const, 6 as const),
        fc.array(
          fc.tuple(
            fc.integer({ min: -90_000_000, max: 90_000_000 }),
            fc.integer({ min: -180_000_000, max: 180_000_000 }),
          ),
          {
            maxLength: 20,
          },
        ),
        async (precision, micro) => {
          const scale = 10 ** (6 - precision);
          const factor = 10 ** precision;
          const grid = micro.map(([lat, lng]) => [Math.trunc(lat / scale) / factor, Math.trunc(lng / scale) / factor]);
          const encoded = await run({ type: "encode", input: grid, precision });
          // Adding 0 turns -0 (from truncating small negatives) into 0, which decoding yields.
          expect(await run({ type: "decode", input: encoded, precision })).toEqual(
            grid.map(([lat = 0, lng = 0]) => [lat + 0, lng + 0]),
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});

/**
 * @mapbox/polyline is the reference: it takes any precision and stays exact at 10, since its
 * only bitwise steps (`& 0x1f`, `| 0`) read the low five bits, which ToInt32 keeps for any
 * integer below 2^53, and it divides by 32 rather than shifting. 180 × 10^10 is past 2^31, so
 * precisions 8–10 would catch an encoder of ours that shifted 32-bit values.
 */
describe("polyline: precisions 1–10 against @mapbox/polyline", () => {
  const PRECISIONS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] as const;

  /** A coordinate rounded to the precision's decimals, with the poles and the antimeridian often. */
  function coordinate(limit: number, precision: number): fc.Arbitrary<number> {
    return fc
      .oneof(fc.double({ min: -limit, max: limit, noNaN: true }), fc.constantFrom(-limit, limit, 0))
      .map((degrees) => Number(degrees.toFixed(precision)) + 0);
  }

  const track = fc.integer({ min: 1, max: 10 }).chain((precision) =>
    fc.record({
      precision: fc.constant(precision),
      points: fc.array(fc.tuple(coordinate(90, precision), coordinate(180, precision)), { maxLength: 20 }),
    }),
  );

  it("encodes exactly as the reference does at every precision, and decodes back", async () => {
    await fc.assert(
      fc.asyncProperty(track, async ({ precision, points }) => {
        const encoded = await run({ type: "encode", input: points, precision });
        expect(encoded).toBe(reference.encode(points, precision));
        expect(await run({ type: "decode", input: encoded, precision })).toEqual(points);
        expect(reference.decode(encoded as string, precision)).toEqual(points);
      }),
      { numRuns: 500 },
    );
  });

  it.each(PRECISIONS)(
    "precision %i: the corners of the globe match the reference and round-trip",
    async (precision) => {
      // 10 ** -4 is 0.00009999999999999999; the literal parses to the double nearest 0.0001.
      const step = Number(`1e-${precision}`);
      const corners: [number, number][] = [
        [90, 180],
        [-90, -180],
        [90, -180],
        [-90, 180],
        [0, 0],
        [step, -step],
      ];
      const encoded = await run({ type: "encode", input: corners, precision });
      expect(encoded).toBe(reference.encode(corners, precision));
      expect(await run({ type: "decode", input: encoded, precision })).toEqual(corners);
    },
  );

  it("encodes (0, 180) at precision 10 to a value worked out with BigInt, past 2^31 units", async () => {
    // 180 × 10^10 = 1.8 × 10^12 units, zigzagged to 3.6 × 10^12, is nine 5-bit chunks; worked
    // out with BigInt arithmetic, so no double or 32-bit step is involved. "?" is latitude 0.
    expect(await run({ type: "encode", input: [[0, 180]], precision: 10 })).toBe("?__gpjwwgB");
    expect(await run({ type: "decode", input: "?__gpjwwgB", precision: 10 })).toEqual([[0, 180]]);
  });

  it("rounds to the precision's decimals, half away from zero, as the reference does", async () => {
    const points: [number, number][] = [
      [12.35, -12.35],
      [0.05, -0.05],
    ];
    const encoded = await run({ type: "encode", input: points, precision: 1 });
    expect(encoded).toBe(reference.encode(points, 1));
    expect(await run({ type: "decode", input: encoded, precision: 1 })).toEqual([
      [12.4, -12.4],
      [0.1, -0.1],
    ]);
  });
});

describe("polyline: refusals", () => {
  it.each([
    [GOOGLE_POLYLINE.slice(0, -1), "truncated"],
    ["_p~iF", "odd number"],
    ["_p~iF~ps|U_ul", "truncated"],
    ["_p~iF ~ps|U", "invalid character"],
    ["_p~iF~ps|U_ulLnnqC_mqNvxq`é", "invalid character"],
  ])("decoding %j is refused (%s)", async (input, message) => {
    expect(expectProblem(await callOperation(polyline, { type: "decode", input }), "invalid-input")).toContain(message);
  });

  it("refuses a precision-6 polyline read at precision 5 when it lands off the globe", async () => {
    const encoded = await run({ type: "encode", input: [[45, 170]], precision: 6 });
    expect(expectProblem(await callOperation(polyline, { type: "decode", input: encoded }), "invalid-input")).toContain(
      "precision",
    );
  });

  it.each([
    { type: "decode", input: GOOGLE_POINTS },
    { type: "encode", input: GOOGLE_POLYLINE },
    { type: "encode", input: [[91, 0]] },
    { type: "encode", input: [[0, 181]] },
    { type: "encode", input: [[0, 0, 0]] },
    { type: "encode", input: [[0, 0]], precision: 0 },
    { type: "encode", input: [[0, 0]], precision: 11 },
    { type: "encode", input: [[0, 0]], precision: 5.5 },
    { type: "reverse", input: "" },
  ])("the schema refuses %j", (raw) => {
    expect(polyline.input.safeParse(raw).success).toBe(false);
  });

  it("encodes nothing to the empty string and back", async () => {
    expect(await run({ type: "encode", input: [] })).toBe("");
    expect(await run({ type: "decode", input: "" })).toEqual([]);
  });
});

describe("polyline: properties", () => {
  it("never throws on arbitrary or hostile input", async () => {
    const point = fc.tuple(fc.double(), fc.double());
    await expectNeverThrows(polyline, {
      type: fc.constantFrom("encode", "decode"),
      input: fc.oneof(
        fc.string(),
        fc.string({ unit: fc.constantFrom(..."?@_`~|{}^[]\\AZaz09") }),
        fc.array(fc.oneof(point, fc.record({ lat: fc.double(), lng: fc.double() }))),
      ),
      precision: fc.constantFrom(0, 1, 5, 6, 7, 10, 11),
    });
  });
});

describe("polyline: documentation", () => {
  it("the example output is what the example input produces", async () => {
    await expectExampleIsReal(polyline);
  });
});
