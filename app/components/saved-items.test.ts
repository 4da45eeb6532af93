/**
 * What "Copy request" puts on the clipboard: a curl command whose words, read by POSIX shell
 * quoting rules, are exactly the saved input, with the key left as the placeholder (decision 047).
 *
 * These tests run inside workerd (vitest.config.ts), where there is no `sh` to hand the command
 * to, so `shellWords` below reads it instead: POSIX single quotes, `\'` and line continuations,
 * and it refuses every other character a shell would treat specially outside quotes, so what it
 * accepts means the same to `sh`. It is a reader written here, not a shell.
 */
import { describe, expect, it } from "vitest";
import { requestFor } from "./saved-items";

/**
 * Reads single-quoted POSIX shell words back as sh would: `'it'\''s'` is `it's`. Outside quotes
 * only plain characters are taken; `$`, backquotes, double quotes, globs, `;`, `&`, `|` and the
 * like throw, since there sh would do something this reader does not.
 */
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
    } else if (/[$`"\\;&|<>(){}[\]*?#~!]/.test(character)) {
      throw new Error(`unquoted shell metacharacter ${character} at ${index} in ${command}`);
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

describe("shellWords, the test's reader", () => {
  it("refuses what sh would expand or split outside quotes, so it cannot pass a command sh reads otherwise", () => {
    expect(shellWords(`curl 'a b' 'it'\\''s'`)).toEqual(["curl", "a b", "it's"]);
    for (const command of ["echo $HOME", "echo `id`", 'echo "x"', "a&b", "a;b", "a*"]) {
      expect(() => shellWords(command), command).toThrow(/metacharacter/);
    }
  });
});

describe("requestFor", () => {
  it("writes a POST as curl whose body POSIX quoting gives back unchanged, quotes and all", () => {
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
