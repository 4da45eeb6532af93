/** `/security`: how Portico is defended and how to report a vulnerability (docs/security.md). */
import { ProsePage } from "~/components/prose-page";
import { Markdown } from "~/lib/markdown";
import { titled } from "~/lib/page-meta";
import securityText from "../../../docs/security.md?raw";
import type { Route } from "./+types/route";

export const meta = () => [
  { title: titled("Security") },
  { name: "description", content: "What Portico defends against, how, and how to report a vulnerability." },
];

// The document is the repository's own docs/security.md: one text for engineers and users.
export function loader() {
  const updated = /^Last updated: (\d{4}-\d{2}-\d{2})$/m.exec(securityText)?.[1] ?? "2026-11-23";
  return { source: securityText.replace(/^Last updated: .*$/m, ""), updated };
}

export default function Security({ loaderData }: Route.ComponentProps) {
  return (
    <ProsePage title="Security" updated={loaderData.updated}>
      <Markdown source={loaderData.source} skipTitle />
    </ProsePage>
  );
}
