/**
 * Renders the small Markdown subset our own documents use (`docs/security.md`): headings,
 * paragraphs, one level of `-` lists, **bold**, `code` and [links](url). Text only ever becomes
 * React text nodes, never HTML, so nothing in a document can inject markup.
 */
import type { ReactNode } from "react";

const INLINE = /(\*\*[^*]+\*\*|`[^`]+`|\[[^\]]+\]\([^)\s]+\))/;

function inline(text: string): ReactNode[] {
  return text.split(INLINE).map((part, index) => {
    if (part.startsWith("**") && part.endsWith("**") && part.length > 4) return <strong key={index}>{part.slice(2, -2)}</strong>;
    if (part.startsWith("`") && part.endsWith("`") && part.length > 2) return <code key={index}>{part.slice(1, -1)}</code>;
    const link = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(part);
    if (link) {
      const href = link[2]!;
      const safe = /^(https?:|mailto:|\/|#)/.test(href) ? href : "#";
      return (
        <a key={index} href={safe} className="text-brand-600 underline">
          {link[1]}
        </a>
      );
    }
    return part;
  });
}

export function Markdown({ source, skipTitle = false }: { source: string; skipTitle?: boolean }) {
  const blocks: ReactNode[] = [];
  let list: string[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) blocks.push(<p key={blocks.length}>{inline(paragraph.join(" "))}</p>);
    if (list.length) {
      blocks.push(
        <ul key={blocks.length} className="list-disc pl-6">
          {list.map((item, index) => (
            <li key={index}>{inline(item)}</li>
          ))}
        </ul>,
      );
    }
    paragraph = [];
    list = [];
  };
  for (const line of source.split("\n")) {
    const heading = /^(#{1,3}) (.*)$/.exec(line);
    if (heading) {
      flush();
      const level = heading[1]!.length;
      if (level === 1 && skipTitle) continue;
      const Tag = (["h1", "h2", "h3"] as const)[level - 1]!;
      blocks.push(
        <Tag key={blocks.length} className={level === 2 ? "mt-8 text-xl font-semibold" : "mt-6 font-semibold"}>
          {inline(heading[2]!)}
        </Tag>,
      );
    } else if (line.startsWith("- ")) {
      if (paragraph.length) flush();
      list.push(line.slice(2));
    } else if (line.startsWith("  ") && list.length) {
      list[list.length - 1] += ` ${line.trim()}`;
    } else if (line.trim() === "") {
      flush();
    } else {
      if (list.length) flush();
      paragraph.push(line.trim());
    }
  }
  flush();
  return <div className="mt-6 space-y-4 leading-relaxed">{blocks}</div>;
}
