import { json, problemResult, type HandlerResult, type OperationContext } from "../definition";
import type { NumberToWordsInput } from "./schema";
import { spellNumber } from "./spell-number";

export async function handleNumberToWords(input: NumberToWordsInput, _ctx: OperationContext): Promise<HandlerResult> {
  const result = spellNumber(input);
  return result.ok
    ? json(result.value)
    : problemResult("invalid-input", result.message, { errors: { number: result.message } });
}
