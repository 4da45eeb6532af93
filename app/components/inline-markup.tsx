/**
 * The little Markdown the API definitions write in their descriptions: `backtick` spans shown
 * as code and [text](https://…) links, which credits and references need (the avatar styles
 * name each creator and licence). Only http(s) targets become links, so a definition cannot
 * smuggle a javascript: URL onto the page; anything else stays as the text it was.
 */
const INLINE_TOKEN = /(`[^`]+`|\[[^\]\n]+\]\(https?:\/\/[^\s)]+\))/g;
const LINK = /^\[([^\]\n]+)\]\((https?:\/\/[^\s)]+)\)$/;

export function InlineMarkup({ text }: { text: string }) {
  return (
    <>
      {text.split(INLINE_TOKEN).map((part, index) => {
        if (part.length > 2 && part.startsWith("`") && part.endsWith("`")) {
          return (
            <code key={index} className="rounded bg-slate-100 px-1 text-[0.9em] dark:bg-slate-800">
              {part.slice(1, -1)}
            </code>
          );
        }
        const link = LINK.exec(part);
        if (link) {
          return (
            <a key={index} href={link[2]} className="underline" rel="noreferrer">
              {link[1]}
            </a>
          );
        }
        return part;
      })}
    </>
  );
}
