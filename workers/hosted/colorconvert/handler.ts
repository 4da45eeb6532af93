import { json, problemResult, type HandlerResult, type OperationContext } from "../definition";
import { describeColor, parseColorInput } from "./convert-color";
import { INPUT_KEYS, type ColorInput } from "./schema";

export async function handleConvertColor(input: ColorInput, _ctx: OperationContext): Promise<HandlerResult> {
  const parsed = parseColorInput(input);
  if (!parsed.ok) {
    const field = INPUT_KEYS.find((key) => input[key] !== undefined);
    return problemResult("invalid-input", parsed.message, { errors: { [field ?? "color"]: parsed.message } });
  }
  return json(
    describeColor(parsed.rgb, parsed.name, {
      alpha: parsed.alpha,
      inGamut: parsed.inGamut,
      extendedName: parsed.extendedName,
    }),
  );
}
