import { env } from "cloudflare:test";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { fieldErrors } from "~/components/form-field";
import { assignRequestId, type ApiEnv } from "./env";
import { invalidInputFromZod, isProblemType, PROBLEM_BASE_URL, PROBLEM_TYPES, problemFromZod } from "./problem";

const OrderSchema = z.object({
  plan: z.enum(["standard", "premium"], { error: "plan is standard or premium" }),
  customer: z.object({
    phone: z.string({ error: "phone is required" }).regex(/^\d{10}$/, "phone has ten digits"),
    name: z.string().max(5, "name is too long").optional(),
  }),
});

type Options = Parameters<typeof problemFromZod>[2];

/** Parses `input` with OrderSchema in a real Hono handler and answers what problemFromZod makes of it. */
async function answerFor(
  input: unknown,
  options?: Options,
): Promise<{ response: Response; body: Record<string, unknown> }> {
  const app = new Hono<ApiEnv>().use(assignRequestId);
  app.post("/", (c) => {
    const parsed = OrderSchema.safeParse(input);
    return parsed.success ? c.json({ ok: true }) : problemFromZod(c, parsed.error, options);
  });
  const response = await app.request("/", { method: "POST", headers: { "cf-ray": "ray-1" } }, env);
  return { response, body: await response.clone().json() };
}

describe("problemFromZod", () => {
  it("answers 422 invalid-input problem+json naming each field once, nested ones dotted", async () => {
    const { response, body } = await answerFor({ plan: "gold", customer: { phone: "12", name: "far too long" } });
    expect(response.status).toBe(422);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(body).toMatchObject({
      type: `${PROBLEM_BASE_URL}invalid-input`,
      title: "Invalid input",
      status: 422,
      requestId: "ray-1",
      errors: {
        plan: "plan is standard or premium",
        "customer.phone": "phone has ten digits",
        "customer.name": "name is too long",
      },
    });
    // The first field's words, as a form shows them beside the field.
    expect(body.detail).toBe("plan is standard or premium");
    expect(body.message).toBe(body.detail);
  });

  it("keeps the first rule a field broke when it broke several", async () => {
    const { body } = await answerFor({ plan: "premium", customer: {} });
    expect(body.errors).toEqual({ "customer.phone": "phone is required" });
  });

  it("puts a failure of the whole value under `root`, `body` unless told", async () => {
    expect((await answerFor([1, 2])).body.errors).toEqual({ body: expect.any(String) });
    expect((await answerFor("text", { root: "input" })).body.errors).toEqual({ input: expect.any(String) });
  });

  it("names the field in `detail` for programs, with `message` repeating it", async () => {
    const { body } = await answerFor({ plan: "premium", customer: { phone: "x" } }, { fieldInDetail: true });
    expect(body.detail).toBe("customer.phone: phone has ten digits");
    expect(body.message).toBe(body.detail);
  });

  it("adds extension members and headers, but an extension cannot replace `errors` or the standard members", async () => {
    const { response, body } = await answerFor(
      { plan: "gold", customer: { phone: "0123456789" } },
      { extensions: { success: 0, errors: "replaced", status: 200 }, headers: { "Retry-After": "3" } },
    );
    expect(response.headers.get("retry-after")).toBe("3");
    expect(body).toMatchObject({ success: 0, status: 422, errors: { plan: "plan is standard or premium" } });
  });
});

describe("invalidInputFromZod", () => {
  it("gives the gateway's steps the same problem as data, without a request", () => {
    const parsed = OrderSchema.safeParse({ plan: "premium", customer: { phone: "1" } });
    expect(invalidInputFromZod(parsed.error ?? { issues: [] }, { root: "input", fieldInDetail: true })).toEqual({
      type: "invalid-input",
      detail: "customer.phone: phone has ten digits",
      extensions: { errors: { "customer.phone": "phone has ten digits" } },
    });
    expect(invalidInputFromZod(OrderSchema.safeParse(7).error ?? { issues: [] }, { root: "input" }).extensions).toEqual(
      {
        errors: { input: expect.any(String) },
      },
    );
  });
});

describe("the problem table", () => {
  it.each(Object.entries(PROBLEM_TYPES))("%s has a status, a title, what it means and what to do", (_type, info) => {
    expect(info.status).toBeGreaterThanOrEqual(400);
    expect(info.status).toBeLessThan(600);
    // Whole sentences a person reads on the type's page.
    expect(info.description).toMatch(/^[A-Z].{30,}[.)]$/s);
    expect(info.action).toMatch(/^[A-Z].{15,}[.)]$/s);
  });

  it("knows its types and nothing an object inherits", () => {
    expect(isProblemType("invalid-input")).toBe(true);
    for (const name of ["toString", "constructor", "__proto__", "hasOwnProperty", "Invalid-Input", ""]) {
      expect(isProblemType(name)).toBe(false);
    }
  });
});

describe("fieldErrors (the pages' twin)", () => {
  it("keys a page form's errors the same way, the form's own under `form`", () => {
    const parsed = z.object({ name: z.string().min(2, "too short"), age: z.number() }).safeParse({ name: "a" });
    expect(fieldErrors(parsed.error?.issues ?? [])).toEqual({ name: "too short", age: expect.any(String) });
    expect(fieldErrors(z.object({}).safeParse(null).error?.issues ?? [])).toEqual({ form: expect.any(String) });
  });
});
