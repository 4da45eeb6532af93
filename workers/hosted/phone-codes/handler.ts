import { json, type HandlerResult, type OperationContext } from "../definition";
import { listPhoneCodes } from "./list-phone-codes";
import type { PhoneCodesQuery } from "./schema";

export async function handlePhoneCodes(input: PhoneCodesQuery, _ctx: OperationContext): Promise<HandlerResult> {
  return json(await listPhoneCodes(input));
}
