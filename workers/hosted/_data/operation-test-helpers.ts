/**
 * Checks every hosted-API test in this group runs: the documented example is what the handler
 * really answers, and no input the schema accepts makes a handler throw. Imported by tests only.
 */
import fc from "fast-check";
import { expect } from "vitest";
import { createTestContext } from "../../../tests/hosted-context";
import type { HandlerResult, HostedApiDefinition, Operation, OperationContext } from "../definition";

export function findOperation(definition: HostedApiDefinition, id: string): Operation {
  const found = definition.operations.find((operation) => operation.id === id);
  if (!found) throw new Error(`${definition.slug} has no operation ${id}`);
  return found;
}

/** Parses like the gateway (a refusal throws, failing the test) and calls the handler. */
export async function callOperation(
  operation: Operation,
  raw: unknown,
  ctx?: OperationContext,
): Promise<HandlerResult> {
  return operation.handler(operation.input.parse(raw), ctx ?? createTestContext());
}

export function expectJson(result: HandlerResult): unknown {
  if (result.kind !== "json") throw new Error(`expected JSON, got ${JSON.stringify(result)}`);
  return result.body;
}

export function expectProblem(result: HandlerResult, type: "invalid-input" | "not-found"): string {
  if (result.kind !== "problem") throw new Error(`expected a ${type} problem, got ${JSON.stringify(result)}`);
  expect(result.type).toBe(type);
  return result.detail;
}

/** The example output in the docs must be exactly what the example input produces, and fit its schema. */
export async function expectExampleIsReal(operation: Operation, ctx?: OperationContext): Promise<void> {
  if (operation.output.kind !== "json") throw new Error(`${operation.id} has no JSON output`);
  const body = expectJson(await callOperation(operation, operation.example, ctx));
  expect(body).toEqual(operation.output.example);
  expect(operation.output.schema.safeParse(body).success).toBe(true);
}

/** JSON that often breaks naive handlers: prototype keys, huge and odd numbers, deep nesting. */
const HOSTILE_OBJECTS: unknown[] = [
  JSON.parse('{"__proto__": {"polluted": true}}'),
  JSON.parse('{"constructor": {"prototype": {"polluted": true}}}'),
  { toString: "x", valueOf: 1 },
  { value: 1e308 },
  { value: -0 },
  { value: "\u0000\uffff\ud800" },
];

/**
 * Arbitrary and hostile JSON objects, some built from the operation's own field names so that a
 * fair share gets past the schema; for each accepted input the handler must answer a JSON body
 * or a problem, never throw. Also asserts that some inputs were accepted, so the property
 * cannot pass by refusing everything.
 */
export async function expectNeverThrows(
  operation: Operation,
  fields: Record<string, fc.Arbitrary<unknown>>,
  ctx?: OperationContext,
): Promise<void> {
  const context = ctx ?? createTestContext();
  const names = Object.keys(fields);
  const arbitrary = fc.oneof(
    fc.constantFrom(...HOSTILE_OBJECTS),
    fc.dictionary(fc.oneof(fc.constantFrom(...names, "__proto__", "constructor"), fc.string()), fc.jsonValue()),
    fc.record(
      Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, fc.oneof(field, fc.jsonValue())])),
      { requiredKeys: [] },
    ),
    fc.record(fields, { requiredKeys: [] }),
    // One field alone, for schemas that take exactly one of several.
    ...Object.entries(fields).map(([name, field]) => fc.record({ [name]: field })),
  );
  let accepted = 0;
  await fc.assert(
    fc.asyncProperty(arbitrary, async (raw) => {
      const parsed = operation.input.safeParse(raw);
      if (!parsed.success) return;
      accepted++;
      const result = await operation.handler(parsed.data, context);
      expect(["json", "problem"]).toContain(result.kind);
      if (result.kind === "json" && operation.output.kind === "json") {
        expect(operation.output.schema.safeParse(result.body).success).toBe(true);
      }
    }),
    { numRuns: 300 },
  );
  expect(accepted).toBeGreaterThan(0);
}
