import { Validator } from "@seriousme/openapi-schema-validator";
import { expect, test } from "vitest";
import { baseUrl } from "./browser";

// Validation compiles JSON Schemas into functions, which workerd refuses: it runs here, in
// Node, against the document the built Worker serves.
test("/openapi.json is a valid OpenAPI 3.1 document", async () => {
  const response = await fetch(`${baseUrl()}/openapi.json`);
  expect(response.status).toBe(200);
  const document = (await response.json()) as { openapi: string; paths: Record<string, unknown> };
  expect(document.openapi).toBe("3.1.0");
  expect(Object.keys(document.paths).length).toBeGreaterThan(0);
  const result = await new Validator().validate(document);
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
});
