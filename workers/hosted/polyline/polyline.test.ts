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
    { type: "encode", input: [[0, 0]], precision: 7 },
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
      precision: fc.constantFrom(5, 6, 7),
    });
  });
});

describe("polyline: documentation", () => {
  it("the example output is what the example input produces", async () => {
    await expectExampleIsReal(polyline);
  });
});
