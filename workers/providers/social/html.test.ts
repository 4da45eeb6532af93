import { describe, expect, it } from "vitest";
import { attribute, decodeEntities, imageMimeTypeOf, metaContent } from "./html";

describe("decodeEntities", () => {
  it("decodes numeric and named references once, left to right", () => {
    expect(decodeEntities("&#65;&#x42;&#X43; &quot;a&quot; &lt;b&gt; &apos;&amp;lt;")).toBe(`ABC "a" <b> '&lt;`);
  });

  it("answers U+FFFD for a number that is no Unicode scalar value, never a throw", () => {
    expect(decodeEntities("a&#99999999;b&#x110000;c&#xD800;d&#0;e")).toBe("a\ufffdb\ufffdc\ufffdd\ufffde");
    expect(decodeEntities("&#x1F680;")).toBe("🚀");
  });

  it("leaves a name it does not know as it was", () => {
    expect(decodeEntities("&copy; &bogus;")).toBe("&copy; &bogus;");
  });
});

describe("metaContent and attribute", () => {
  it("reads a meta tag's content whatever the order of its attributes, decoded", () => {
    expect(metaContent('<meta property="og:title" content="A &amp; B" />', "og:title")).toBe("A & B");
    expect(metaContent('<meta content="C" property="og:title">', "og:title")).toBe("C");
    expect(metaContent('<meta property="og:titles" content="no">', "og:title")).toBeNull();
    // A property name is matched as written, not as a pattern.
    expect(metaContent('<meta property="ogXtitle" content="no">', "og.title")).toBeNull();
  });

  it("reads an attribute from one tag, null when it is absent", () => {
    const tag = '<video data-sources="[{&quot;src&quot;:1}]" data-poster-url="https://x/?a=1&amp;b=2">';
    expect(attribute(tag, "data-sources")).toBe('[{"src":1}]');
    expect(attribute(tag, "data-poster-url")).toBe("https://x/?a=1&b=2");
    expect(attribute(tag, "src")).toBeNull();
  });
});

describe("imageMimeTypeOf", () => {
  it.each([
    ["https://pbs.twimg.com/media/a.png", "image/png"],
    ["https://i.pinimg.com/originals/a.GIF", "image/gif"],
    ["https://scontent.cdninstagram.com/v/a.webp?stp=1", "image/webp"],
    ["https://scontent.cdninstagram.com/v/a.heic", "image/heic"],
    ["https://pbs.twimg.com/media/a.jpg", "image/jpeg"],
    ["https://media.licdn.com/dms/image/v2/D4E22AQF1aB2cD3eF4g/feedshare-shrink_800/0/1", "image/jpeg"],
    ["not a url", "image/jpeg"],
  ])("%s is %s", (url, type) => {
    expect(imageMimeTypeOf(url)).toBe(type);
  });
});
