import { describe, expect, test } from "vitest";
import { codeSamples } from "./code-samples";
import { API_KEY_PLACEHOLDER as KEY } from "./site";

describe("codeSamples", () => {
  test("a JSON call answered with a file: the body as JSON, the answer saved under its type's extension", () => {
    const samples = codeSamples({
      method: "POST",
      url: "https://portico.dev/api/v1/qrcode",
      fields: { text: "hi", size: 300, transparent: false },
      inQuery: false,
      binaryTypes: ["image/svg+xml", "image/png"],
    });
    expect(samples.curl).toBe(
      [
        `curl -X POST "https://portico.dev/api/v1/qrcode" \\`,
        `  -H "x-api-key: ${KEY}" \\`,
        `  -H "content-type: application/json" \\`,
        `  -d '{"text":"hi","size":300,"transparent":false}' \\`,
        `  --output result.svg`,
      ].join("\n"),
    );
    expect(samples.javascript).toBe(
      [
        `const response = await fetch("https://portico.dev/api/v1/qrcode", {`,
        `  method: "POST",`,
        `  headers: { "x-api-key": "${KEY}", "content-type": "application/json" },`,
        `  body: JSON.stringify({`,
        `    "text": "hi",`,
        `    "size": 300,`,
        `    "transparent": false`,
        `  }),`,
        `});`,
        `if (!response.ok) throw new Error((await response.json()).detail);`,
        `const image = await response.blob(); // image/svg+xml or image/png`,
        `console.log(response.headers.get("x-ratelimit-remaining"), "calls left this month");`,
      ].join("\n"),
    );
    expect(samples.python).toBe(
      [
        `import requests`,
        ``,
        `response = requests.post(`,
        `    "https://portico.dev/api/v1/qrcode",`,
        `    headers={"x-api-key": "${KEY}"},`,
        `    json={`,
        `      "text": "hi",`,
        `      "size": 300,`,
        `      "transparent": False`,
        `    },`,
        `    timeout=30,`,
        `)`,
        `response.raise_for_status()`,
        `open("result.svg", "wb").write(response.content)`,
      ].join("\n"),
    );
  });

  test("a GET call answered with JSON: the fields in the query string, the answer printed", () => {
    const samples = codeSamples({
      method: "GET",
      url: "https://portico.dev/api/v1/phone-codes/IN",
      fields: { q: "a&b" },
      inQuery: true,
      binaryTypes: null,
    });
    expect(samples.curl).toBe(
      [`curl "https://portico.dev/api/v1/phone-codes/IN?q=a%26b" \\`, `  -H "x-api-key: ${KEY}"`].join("\n"),
    );
    expect(samples.javascript).toContain(`fetch("https://portico.dev/api/v1/phone-codes/IN?q=a%26b", {`);
    expect(samples.javascript).toContain(`headers: { "x-api-key": "${KEY}" },`);
    expect(samples.javascript).not.toContain("body:");
    expect(samples.javascript).toContain("const result = await response.json();");
    expect(samples.python).toContain(`    params={"q":"a&b"},`);
    expect(samples.python).not.toContain("json=");
    expect(samples.python.endsWith("print(response.json())")).toBe(true);
  });
});
