/**
 * Code samples for one operation (curl, JavaScript fetch, Python requests), built from its
 * example input. `API_KEY_PLACEHOLDER` stands where the key goes; the docs page puts the
 * reader's own key there in the browser, so the key never travels to our server for this.
 */
import { API_KEY_PLACEHOLDER } from "~/lib/site";
import type { Operation } from "./definition";
import { pathParams } from "./describe";

export interface CodeSamples {
  curl: string;
  javascript: string;
  python: string;
}

function fillPath(path: string, example: Record<string, unknown>): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => encodeURIComponent(String(example[name] ?? name)));
}

function extension(mime: string): string {
  return mime.split("/")[1]?.replace("svg+xml", "svg").replace("jpeg", "jpg") ?? "bin";
}

export function codeSamples(origin: string, slug: string, operation: Operation): CodeSamples {
  const example = (operation.example ?? {}) as Record<string, unknown>;
  const inPath = new Set(pathParams(operation.path));
  const rest = Object.fromEntries(Object.entries(example).filter(([name]) => !inPath.has(name)));
  const url = `${origin}/api/v1/${slug}${fillPath(operation.path, example)}`;
  const usesQuery = operation.inputSource === "query" || operation.method !== "POST";
  const query =
    usesQuery && Object.keys(rest).length
      ? `?${new URLSearchParams(Object.entries(rest).map(([k, v]) => [k, String(v)]))}`
      : "";
  const body = usesQuery ? null : JSON.stringify(rest, null, 2);
  const binary = operation.output.kind === "binary";
  const outFile =
    binary && operation.output.kind === "binary" ? `result.${extension(operation.output.mimeTypes[0] ?? "")}` : "";

  const curl = [
    `curl${operation.method === "GET" ? "" : ` -X ${operation.method}`} "${url}${query}" \\`,
    `  -H "x-api-key: ${API_KEY_PLACEHOLDER}"${body ? " \\" : binary ? " \\" : ""}`,
    ...(body
      ? [`  -H "content-type: application/json" \\`, `  -d '${JSON.stringify(rest)}'${binary ? " \\" : ""}`]
      : []),
    ...(binary ? [`  --output ${outFile}`] : []),
  ].join("\n");

  const javascript = [
    `const response = await fetch("${url}${query}", {`,
    `  method: "${operation.method}",`,
    `  headers: { "x-api-key": "${API_KEY_PLACEHOLDER}"${body ? ', "content-type": "application/json"' : ""} },`,
    ...(body ? [`  body: JSON.stringify(${body.replace(/\n/g, "\n  ")}),`] : []),
    `});`,
    `if (!response.ok) throw new Error((await response.json()).detail);`,
    binary
      ? `const image = await response.blob(); // ${operation.output.kind === "binary" ? operation.output.mimeTypes.join(" or ") : ""}`
      : `const result = await response.json();`,
    `console.log(response.headers.get("x-ratelimit-remaining"), "calls left this month");`,
  ].join("\n");

  const python = [
    `import requests`,
    ``,
    `response = requests.${operation.method.toLowerCase()}(`,
    `    "${url}",`,
    `    headers={"x-api-key": "${API_KEY_PLACEHOLDER}"},`,
    ...(usesQuery && Object.keys(rest).length ? [`    params=${JSON.stringify(rest)},`] : []),
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
