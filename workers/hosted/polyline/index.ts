/**
 * Polyline Encode/Decode: Google's encoded polyline format at any precision from 1 to 10, as
 * the reference encoder (@mapbox/polyline, used by the tests) allows. The spec's
 * spelling "polyine" is a registry alias; older clients call `POST /api/polyline`.
 */
import { defineOperation, type HostedApiDefinition } from "../definition";
import { handlePolyline } from "./handler";
import { PolylineInputSchema, PolylineResultSchema } from "./schema";

export const definition: HostedApiDefinition = {
  slug: "polyline",
  operations: [
    defineOperation({
      id: "encodeOrDecodePolyline",
      method: "POST",
      path: "",
      summary: "Encode coordinates to a polyline, or decode one",
      description:
        'With `type: "encode"`, `input` is a list of points, each `[lat, lng]` or `{ "lat": …, "lng": … }` in degrees, and `data` is the encoded string. ' +
        'With `type: "decode"`, `input` is the string and `data` is `[[lat, lng], …]`. `precision` is the number of decimals kept, any whole number from 1 to 10: 5 is Google Maps (the default), 6 is OSRM and Valhalla; coordinates are rounded half away from zero to that many decimals, and a string must be decoded at the precision it was encoded with. ' +
        "A string that is truncated, holds a character outside `?`…`~`, or decodes to a point off the globe (often a precision mix-up) is refused with the position of the fault.",
      inputSource: "json",
      input: PolylineInputSchema,
      output: {
        kind: "json",
        schema: PolylineResultSchema,
        example: { success: 1, data: "_p~iF~ps|U_ulLnnqC_mqNvxq`@" },
      },
      example: {
        type: "encode",
        input: [
          [38.5, -120.2],
          [40.7, -120.95],
          [43.252, -126.453],
        ],
        precision: 5,
      },
      handler: handlePolyline,
    }),
  ],
  legacyRoutes: [
    {
      method: "POST",
      path: "/api/polyline",
      operationId: "encodeOrDecodePolyline",
      // The older shape is `{ input, type }` and always meant Google's precision 5.
      adapt: (raw) => ({ input: raw.input, type: raw.type, precision: 5 }),
      input: {
        summary: "`{ input, type }`: the same fields without `precision`, which is always 5 (Google Maps).",
        schema: {
          type: "object",
          required: ["type", "input"],
          properties: {
            type: { enum: ["encode", "decode"] },
            input: {
              description: "decode: the encoded polyline; encode: [[lat, lng], …] or [{ lat, lng }, …] in degrees",
              oneOf: [{ type: "string" }, { type: "array", items: {} }],
            },
          },
        },
        example: { type: "decode", input: "_p~iF~ps|U_ulLnnqC_mqNvxq`@" },
      },
    },
  ],
};
