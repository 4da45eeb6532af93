import { json, problemResult, type HandlerResult, type OperationContext } from "../definition";
import { decodePolyline, encodePolyline, type LatLng } from "./encoded-polyline";
import type { PolylineInput } from "./schema";

export async function handlePolyline(input: PolylineInput, _ctx: OperationContext): Promise<HandlerResult> {
  // The schema pairs a string with decode and a list with encode; checking the shape here
  // narrows the type without trusting that.
  if (typeof input.input === "string") {
    if (input.type !== "decode") return problemResult("invalid-input", "encode takes a list of [lat, lng] points");
    const decoded = decodePolyline(input.input, input.precision);
    if (!decoded.ok) return problemResult("invalid-input", decoded.message, { errors: { input: decoded.message } });
    return json({ success: 1, data: decoded.points });
  }
  if (input.type !== "encode") return problemResult("invalid-input", "decode takes the encoded polyline as a string");
  const points: LatLng[] = input.input.map((point) =>
    Array.isArray(point) ? [point[0], point[1]] : [point.lat, point.lng],
  );
  return json({ success: 1, data: encodePolyline(points, input.precision) });
}
