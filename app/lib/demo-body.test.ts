/**
 * The live demo's multipart body when the visitor chooses a file: the example's own copy of the
 * file gives way to it, so the call carries one image, not the example's and the visitor's.
 */
import { describe, expect, it } from "vitest";
import { operationDocs } from "~workers/hosted/docs";
import { RemoveBgInputSchema } from "~workers/hosted/removebg/schema";
import { fieldsBesideFiles } from "./demo-body";

describe("the live demo's fields beside a chosen file", () => {
  it("Remove Background: a file for image_file replaces the example's image_file_b64, so the schema takes the call", async () => {
    const [operation] = await operationDocs("removebg", "https://portico.test");
    const example = JSON.parse(operation!.exampleInput) as Record<string, unknown>;
    // The file fields as the live demo's loader reads them from the docs.
    const fileFields = operation!.parameters
      .filter((parameter) => parameter.type.startsWith("file"))
      .map((parameter) => parameter.name);
    expect(fileFields).toEqual(["image_file"]);
    expect(example.image_file_b64).toMatch(/^data:image\/png;base64,/);

    const fields = fieldsBesideFiles(example, ["image_file"], fileFields);
    expect(fields).toEqual({ size: "full", format: "png" });
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], "mine.png", { type: "image/png" });
    expect(RemoveBgInputSchema.safeParse({ ...fields, image_file: file }).success).toBe(true);
    // As it was sent before: both images, which the API refuses at image_file.
    const both = RemoveBgInputSchema.safeParse({ ...example, image_file: file });
    expect(both.success).toBe(false);
  });

  it("a file replaces the example's value of its own field, and keeps what the visitor typed otherwise", () => {
    const example = { image: "data:image/png;base64,iVBORw0KGgo=", language: "eng", url: "https://example.com/a.png" };
    expect(fieldsBesideFiles(example, ["image"], ["image"])).toEqual({
      language: "eng",
      url: "https://example.com/a.png",
    });
    // A second file field's example stays when only the first gets a file.
    const two = { base: "data:image/png;base64,AAAA", overlay: "data:image/png;base64,BBBB", gap: 1 };
    expect(fieldsBesideFiles(two, ["base"], ["base", "overlay"])).toEqual({
      overlay: "data:image/png;base64,BBBB",
      gap: 1,
    });
    // No file chosen: the example is sent as it is.
    expect(fieldsBesideFiles(example, [], ["image"])).toBe(example);
  });
});
