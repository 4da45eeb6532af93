/**
 * The docs pages' code samples (curl, JavaScript fetch, Python requests) written from one
 * example request. The page writes them itself, on the server and in the browser alike, so its
 * loader data carries the example once: three finished samples carried it three times over
 * (each docs page's data held the QR decoder's 1 KB example image four times).
 * `API_KEY_PLACEHOLDER` stands where the key goes; the page puts the reader's own key there in
 * the browser, so the key never travels to our server for this.
 */
import { API_KEY_PLACEHOLDER } from "./site";

export interface SampleRequest {
  method: string;
  /** The call's URL with its path parameters filled in, without the query. */
  url: string;
  /** The example's fields: sent as the query string (GET, DELETE, query input) or as JSON. */
  fields: Record<string, unknown>;
  inQuery: boolean;
  /** The answer's media types when it is a file rather than JSON. */
  binaryTypes: string[] | null;
}

export interface CodeSamples {
  curl: string;
  javascript: string;
  python: string;
}

function extension(mime: string): string {
  return mime.split("/")[1]?.replace("svg+xml", "svg").replace("jpeg", "jpg") ?? "bin";
}

export function codeSamples({ method, url, fields, inQuery, binaryTypes }: SampleRequest): CodeSamples {
  const hasFields = Object.keys(fields).length > 0;
  const query =
    inQuery && hasFields ? `?${new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, String(v)]))}` : "";
  const body = inQuery ? null : JSON.stringify(fields, null, 2);
  const binary = binaryTypes !== null;
  const outFile = binary ? `result.${extension(binaryTypes[0] ?? "")}` : "";

  const curl = [
    `curl${method === "GET" ? "" : ` -X ${method}`} "${url}${query}" \\`,
    `  -H "x-api-key: ${API_KEY_PLACEHOLDER}"${body ? " \\" : binary ? " \\" : ""}`,
    ...(body
      ? [`  -H "content-type: application/json" \\`, `  -d '${JSON.stringify(fields)}'${binary ? " \\" : ""}`]
      : []),
    ...(binary ? [`  --output ${outFile}`] : []),
  ].join("\n");

  const javascript = [
    `const response = await fetch("${url}${query}", {`,
    `  method: "${method}",`,
    `  headers: { "x-api-key": "${API_KEY_PLACEHOLDER}"${body ? ', "content-type": "application/json"' : ""} },`,
    ...(body ? [`  body: JSON.stringify(${body.replace(/\n/g, "\n  ")}),`] : []),
    `});`,
    `if (!response.ok) throw new Error((await response.json()).detail);`,
    binary
      ? `const image = await response.blob(); // ${binaryTypes.join(" or ")}`
      : `const result = await response.json();`,
    `console.log(response.headers.get("x-ratelimit-remaining"), "calls left this month");`,
  ].join("\n");

  const python = [
    `import requests`,
    ``,
    `response = requests.${method.toLowerCase()}(`,
    `    "${url}",`,
    `    headers={"x-api-key": "${API_KEY_PLACEHOLDER}"},`,
    ...(inQuery && hasFields ? [`    params=${JSON.stringify(fields)},`] : []),
    ...(body
      ? [
          `    json=${body
            .replace(/\n/g, "\n    ")
            .replace(/\btrue\b/g, "True")
            .replace(/\bfalse\b/g, "False")
            .replace(/\bnull\b/g, "None")},`,
        ]
      : []),
    `    timeout=30,`,
    `)`,
    `response.raise_for_status()`,
    binary ? `open("${outFile}", "wb").write(response.content)` : `print(response.json())`,
  ].join("\n");

  return { curl, javascript, python };
}
