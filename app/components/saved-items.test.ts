/**
 * What "Copy request" puts on the clipboard: a curl command a shell reads back to exactly the
 * saved input, with the key left as the placeholder (decision 047).
 */
import { describe, expect, it } from "vitest";
import { requestFor } from "./saved-items";

/** Reads single-quoted POSIX shell words back, as sh does: `'it'\''s'` is `it's`. */
function shellWords(command: string): string[] {
  const words: string[] = [];
  let current: string | null = null;
  for (let index = 0; index < command.length; index++) {
    const character = command[index]!;
    if (character === "'") {
      const end = command.indexOf("'", index + 1);
      if (end < 0) throw new Error(`unterminated quote at ${index} in ${command}`);
      current = (current ?? "") + command.slice(index + 1, end);
      index = end;
    } else if (character === "\\" && command[index + 1] === "'") {
      current = (current ?? "") + "'";
      index++;
    } else if (character === "\\" && command[index + 1] === "\n") {
      index++;
    } else if (/\s/.test(character)) {
      if (current !== null) words.push(current);
      current = null;
    } else {
      current = (current ?? "") + character;
    }
  }
  if (current !== null) words.push(current);
  return words;
}

describe("requestFor", () => {
  it("writes a POST as curl whose body the shell gives back unchanged, quotes and all", () => {
    const input = { seed: 'it\'s "quoted" $HOME `x`', style: "shapes", size: 96 };
    const command = requestFor({ method: "POST", path: "/api/v1/avatar", input }, "https://portico.dev");
    const words = shellWords(command);
    expect(words.slice(0, 4)).toEqual(["curl", "-X", "POST", "https://portico.dev/api/v1/avatar"]);
    expect(words[words.indexOf("-d") + 1]).toBe(JSON.stringify(input));
    expect(JSON.parse(words[words.indexOf("-d") + 1]!)).toEqual(input);
    expect(words).toContain("x-api-key: YOUR_API_KEY");
    expect(words).toContain("content-type: application/json");
  });

  it("writes a GET as its URL, each value in the query string", () => {
    const command = requestFor(
      { method: "GET", path: "/api/v1/avatar", input: { seed: "a&b=c", size: "96", flip: "true" } },
      "https://portico.dev",
    );
    const url = new URL(shellWords(command)[1]!);
    expect(url.pathname).toBe("/api/v1/avatar");
    expect(Object.fromEntries(url.searchParams)).toEqual({ seed: "a&b=c", size: "96", flip: "true" });
    expect(shellWords(command)).toContain("x-api-key: YOUR_API_KEY");
  });
});
