import { z } from "zod";

/** 10,000 points is a long GPS track; the 64 KiB body limit binds before this does. */
export const MAX_POINTS = 10_000;
/** The default 64 KiB body cannot carry more; the cap keeps decoding bounded if that limit is raised. */
export const MAX_ENCODED_LENGTH = 65_536;

/** The range @mapbox/polyline, the reference encoder, takes; 10 decimals is about 11 µm. */
export const MIN_PRECISION = 1;
export const MAX_PRECISION = 10;

const latitude = z.number().min(-90).max(90);
const longitude = z.number().min(-180).max(180);

export const LatLngSchema = z.union([z.tuple([latitude, longitude]), z.object({ lat: latitude, lng: longitude })]);

/**
 * One flat object rather than a union keyed by `type`, so the docs and OpenAPI list its three
 * fields; the refinement ties the shape of `input` to `type`.
 */
export const PolylineInputSchema = z
  .object({
    type: z.enum(["encode", "decode"]).describe("encode: points to a string; decode: a string to points"),
    input: z
      .union([
        z.string().trim().max(MAX_ENCODED_LENGTH, `at most ${MAX_ENCODED_LENGTH} characters`),
        z.array(LatLngSchema).max(MAX_POINTS, `at most ${MAX_POINTS} points`),
      ])
      .describe("decode: the encoded polyline; encode: [[lat, lng], …] or [{ lat, lng }, …] in degrees"),
    precision: z
      .number()
      .int("a whole number of decimal places")
      .min(MIN_PRECISION, `at least ${MIN_PRECISION}`)
      .max(MAX_PRECISION, `at most ${MAX_PRECISION}`)
      .default(5)
      .describe(
        `decimal places kept, ${MIN_PRECISION}–${MAX_PRECISION}: 5 is Google Maps (the default), 6 is OSRM and Valhalla; encode and decode must use the same one`,
      ),
  })
  .superRefine((value, ctx) => {
    const isString = typeof value.input === "string";
    if (value.type === "decode" && !isString) {
      ctx.addIssue({ code: "custom", path: ["input"], message: "decode takes the encoded polyline as a string" });
    }
    if (value.type === "encode" && isString) {
      ctx.addIssue({ code: "custom", path: ["input"], message: "encode takes a list of [lat, lng] points" });
    }
  });

export type PolylineInput = z.infer<typeof PolylineInputSchema>;

export const PolylineResultSchema = z.object({
  success: z.literal(1),
  data: z
    .union([z.string(), z.array(z.tuple([z.number(), z.number()]))])
    .describe("encode: the polyline string; decode: [[lat, lng], …]"),
});
