import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MAX_URL_LENGTH, recogniseInstagramProfile, recognisePostUrl } from "./recognise";

/** Every form users paste, with the PostRef each must give: [text, platform, id, kind, canonical url]. */
const RECOGNISED: [string, string, string, string, string][] = [
  // YouTube
  [
    "https://www.youtube.com/watch?v=aqz-KE-bpKQ",
    "youtube",
    "aqz-KE-bpKQ",
    "video",
    "https://www.youtube.com/watch?v=aqz-KE-bpKQ",
  ],
  [
    "https://youtube.com/watch?v=aqz-KE-bpKQ&t=42s&si=AbCdEf&feature=share",
    "youtube",
    "aqz-KE-bpKQ",
    "video",
    "https://www.youtube.com/watch?v=aqz-KE-bpKQ",
  ],
  [
    "https://www.youtube.com/watch?feature=youtu.be&v=aqz-KE-bpKQ&list=PL123",
    "youtube",
    "aqz-KE-bpKQ",
    "video",
    "https://www.youtube.com/watch?v=aqz-KE-bpKQ",
  ],
  [
    "https://youtu.be/aqz-KE-bpKQ?si=xyz123&t=10",
    "youtube",
    "aqz-KE-bpKQ",
    "video",
    "https://www.youtube.com/watch?v=aqz-KE-bpKQ",
  ],
  ["youtu.be/aqz-KE-bpKQ", "youtube", "aqz-KE-bpKQ", "video", "https://www.youtube.com/watch?v=aqz-KE-bpKQ"],
  [
    "https://www.youtube.com/shorts/dQw4w9WgXcQ?feature=share",
    "youtube",
    "dQw4w9WgXcQ",
    "short",
    "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
  ],
  [
    "https://www.youtube.com/live/jfKfPfyJRdk?si=abc",
    "youtube",
    "jfKfPfyJRdk",
    "video",
    "https://www.youtube.com/watch?v=jfKfPfyJRdk",
  ],
  [
    "https://www.youtube.com/embed/aqz-KE-bpKQ?autoplay=1",
    "youtube",
    "aqz-KE-bpKQ",
    "video",
    "https://www.youtube.com/watch?v=aqz-KE-bpKQ",
  ],
  [
    "https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ",
    "youtube",
    "aqz-KE-bpKQ",
    "video",
    "https://www.youtube.com/watch?v=aqz-KE-bpKQ",
  ],
  [
    "https://m.youtube.com/watch?v=aqz-KE-bpKQ",
    "youtube",
    "aqz-KE-bpKQ",
    "video",
    "https://www.youtube.com/watch?v=aqz-KE-bpKQ",
  ],
  [
    "https://music.youtube.com/watch?v=aqz-KE-bpKQ&list=RDAMVM",
    "youtube",
    "aqz-KE-bpKQ",
    "video",
    "https://www.youtube.com/watch?v=aqz-KE-bpKQ",
  ],
  [
    "http://WWW.YouTube.COM./watch?v=aqz-KE-bpKQ",
    "youtube",
    "aqz-KE-bpKQ",
    "video",
    "https://www.youtube.com/watch?v=aqz-KE-bpKQ",
  ],
  [
    "  https://www.youtube.com/watch?v=aqz-KE-bpKQ\n",
    "youtube",
    "aqz-KE-bpKQ",
    "video",
    "https://www.youtube.com/watch?v=aqz-KE-bpKQ",
  ],
  // Instagram
  [
    "https://www.instagram.com/reel/C8xYzAbCdEf/",
    "instagram",
    "C8xYzAbCdEf",
    "reel",
    "https://www.instagram.com/reel/C8xYzAbCdEf/",
  ],
  [
    "https://www.instagram.com/reels/C8xYzAbCdEf/?igsh=MWQ1ZGUxMzBkMA==",
    "instagram",
    "C8xYzAbCdEf",
    "reel",
    "https://www.instagram.com/reel/C8xYzAbCdEf/",
  ],
  [
    "https://www.instagram.com/p/C7qRsTuVwXy/?utm_source=ig_web_copy_link&img_index=1",
    "instagram",
    "C7qRsTuVwXy",
    "post",
    "https://www.instagram.com/p/C7qRsTuVwXy/",
  ],
  [
    "https://instagram.com/tv/B_abc123-XY",
    "instagram",
    "B_abc123-XY",
    "post",
    "https://www.instagram.com/p/B_abc123-XY/",
  ],
  [
    "https://www.instagram.com/nasa/p/C7qRsTuVwXy/",
    "instagram",
    "C7qRsTuVwXy",
    "post",
    "https://www.instagram.com/p/C7qRsTuVwXy/",
  ],
  [
    "https://www.instagram.com/nasa/reel/C8xYzAbCdEf/",
    "instagram",
    "C8xYzAbCdEf",
    "reel",
    "https://www.instagram.com/reel/C8xYzAbCdEf/",
  ],
  ["https://instagr.am/p/C7qRsTuVwXy/", "instagram", "C7qRsTuVwXy", "post", "https://www.instagram.com/p/C7qRsTuVwXy/"],
  [
    "https://m.instagram.com/reel/C8xYzAbCdEf",
    "instagram",
    "C8xYzAbCdEf",
    "reel",
    "https://www.instagram.com/reel/C8xYzAbCdEf/",
  ],
  // Facebook
  [
    "https://www.facebook.com/NASA/videos/1003263494553473/",
    "facebook",
    "1003263494553473",
    "video",
    "https://www.facebook.com/NASA/videos/1003263494553473/",
  ],
  [
    "https://www.facebook.com/NASA/videos/artemis-launch/1003263494553473/?mibextid=abc",
    "facebook",
    "1003263494553473",
    "video",
    "https://www.facebook.com/NASA/videos/1003263494553473/",
  ],
  [
    "https://m.facebook.com/NASA/videos/1003263494553473",
    "facebook",
    "1003263494553473",
    "video",
    "https://www.facebook.com/NASA/videos/1003263494553473/",
  ],
  [
    "https://web.facebook.com/watch/?v=1003263494553473&ref=sharing",
    "facebook",
    "1003263494553473",
    "video",
    "https://www.facebook.com/watch/?v=1003263494553473",
  ],
  [
    "https://www.facebook.com/watch?v=1003263494553473",
    "facebook",
    "1003263494553473",
    "video",
    "https://www.facebook.com/watch/?v=1003263494553473",
  ],
  [
    "https://www.facebook.com/video.php?v=1003263494553473",
    "facebook",
    "1003263494553473",
    "video",
    "https://www.facebook.com/watch/?v=1003263494553473",
  ],
  [
    "https://www.facebook.com/reel/1234567890123456?s=yWDuG2&fs=e",
    "facebook",
    "1234567890123456",
    "reel",
    "https://www.facebook.com/reel/1234567890123456/",
  ],
  [
    "https://www.facebook.com/share/v/1AbCdEfGhI/",
    "facebook",
    "1AbCdEfGhI",
    "share",
    "https://www.facebook.com/share/v/1AbCdEfGhI/",
  ],
  [
    "https://www.facebook.com/share/r/1XyZ9876/?mibextid=wwXIfr",
    "facebook",
    "1XyZ9876",
    "share",
    "https://www.facebook.com/share/r/1XyZ9876/",
  ],
  ["https://fb.watch/aBcD12_xY/?mibextid=Nif5oz", "facebook", "aBcD12_xY", "share", "https://fb.watch/aBcD12_xY/"],
  // X
  [
    "https://x.com/NASA/status/1850214830462251210",
    "x",
    "1850214830462251210",
    "post",
    "https://x.com/i/status/1850214830462251210",
  ],
  [
    "https://twitter.com/NASA/status/1850214830462251210?s=20&t=AbCdEf",
    "x",
    "1850214830462251210",
    "post",
    "https://x.com/i/status/1850214830462251210",
  ],
  [
    "https://mobile.twitter.com/NASA/status/1850214830462251210/video/1",
    "x",
    "1850214830462251210",
    "post",
    "https://x.com/i/status/1850214830462251210",
  ],
  [
    "https://www.x.com/i/web/status/1850214830462251210",
    "x",
    "1850214830462251210",
    "post",
    "https://x.com/i/status/1850214830462251210",
  ],
  [
    "https://x.com/i/status/1850214830462251210",
    "x",
    "1850214830462251210",
    "post",
    "https://x.com/i/status/1850214830462251210",
  ],
  // LinkedIn
  [
    "https://www.linkedin.com/posts/nasa_artemis-activity-7262145368218238976-AbCd",
    "linkedin",
    "7262145368218238976",
    "activity",
    "https://www.linkedin.com/feed/update/urn:li:activity:7262145368218238976/",
  ],
  [
    "https://www.linkedin.com/posts/nasa_artemis-activity-7262145368218238976-AbCd/?utm_source=share&utm_medium=member_desktop",
    "linkedin",
    "7262145368218238976",
    "activity",
    "https://www.linkedin.com/feed/update/urn:li:activity:7262145368218238976/",
  ],
  [
    "https://www.linkedin.com/feed/update/urn:li:activity:7262145368218238976/",
    "linkedin",
    "7262145368218238976",
    "activity",
    "https://www.linkedin.com/feed/update/urn:li:activity:7262145368218238976/",
  ],
  [
    "https://linkedin.com/feed/update/urn%3Ali%3Aactivity%3A7262145368218238976?trk=public",
    "linkedin",
    "7262145368218238976",
    "activity",
    "https://www.linkedin.com/feed/update/urn:li:activity:7262145368218238976/",
  ],
  [
    "https://www.linkedin.com/feed/update/urn:li:ugcPost:7262145368218238977/",
    "linkedin",
    "7262145368218238977",
    "ugcPost",
    "https://www.linkedin.com/feed/update/urn:li:ugcPost:7262145368218238977/",
  ],
  [
    "https://www.linkedin.com/embed/feed/update/urn:li:activity:7262145368218238976",
    "linkedin",
    "7262145368218238976",
    "activity",
    "https://www.linkedin.com/feed/update/urn:li:activity:7262145368218238976/",
  ],
  // Pinterest
  [
    "https://www.pinterest.com/pin/1055599907085543/",
    "pinterest",
    "1055599907085543",
    "pin",
    "https://www.pinterest.com/pin/1055599907085543/",
  ],
  [
    "https://pinterest.co.uk/pin/1055599907085543",
    "pinterest",
    "1055599907085543",
    "pin",
    "https://www.pinterest.com/pin/1055599907085543/",
  ],
  [
    "https://www.pinterest.fr/pin/1055599907085543/?utm_source=x",
    "pinterest",
    "1055599907085543",
    "pin",
    "https://www.pinterest.com/pin/1055599907085543/",
  ],
  [
    "https://in.pinterest.com/pin/1055599907085543/",
    "pinterest",
    "1055599907085543",
    "pin",
    "https://www.pinterest.com/pin/1055599907085543/",
  ],
  [
    "https://www.pinterest.com.au/pin/artemis-rollout--1055599907085543/",
    "pinterest",
    "1055599907085543",
    "pin",
    "https://www.pinterest.com/pin/1055599907085543/",
  ],
  ["https://pin.it/4AbCdEf9g", "pinterest", "4AbCdEf9g", "share", "https://pin.it/4AbCdEf9g"],
];

describe("recognisePostUrl: the forms users paste", () => {
  it.each(RECOGNISED)("%s", (text, platform, id, kind, url) => {
    expect(recognisePostUrl(text)).toEqual({ ok: true, ref: { platform, id, kind, url } });
  });

  it("builds every canonical URL on the platform's main host, whatever host the caller wrote", () => {
    const mainHosts = new Set([
      "www.youtube.com",
      "www.instagram.com",
      "www.facebook.com",
      "fb.watch",
      "x.com",
      "www.linkedin.com",
      "www.pinterest.com",
      "pin.it",
    ]);
    for (const [text] of RECOGNISED) {
      const result = recognisePostUrl(text);
      if (!result.ok) throw new Error(`${text} was refused`);
      expect(mainHosts.has(new URL(result.ref.url).hostname), text).toBe(true);
    }
  });

  it("drops every tracking parameter: the same post gives one canonical URL (the cache's key)", () => {
    const spellings = [
      "https://youtu.be/aqz-KE-bpKQ",
      "https://youtu.be/aqz-KE-bpKQ?si=AAAA",
      "https://www.youtube.com/watch?v=aqz-KE-bpKQ&utm_source=newsletter&utm_medium=email&feature=shared",
      "https://m.youtube.com/shorts/aqz-KE-bpKQ?t=3",
    ];
    const urls = spellings.map((text) => {
      const result = recognisePostUrl(text);
      return result.ok ? result.ref.url : result.reason;
    });
    expect(new Set(urls)).toEqual(new Set(["https://www.youtube.com/watch?v=aqz-KE-bpKQ"]));
  });
});

describe("recognisePostUrl: what is refused", () => {
  it.each([
    // look-alike hosts
    ["https://youtube.com.evil.example/watch?v=aqz-KE-bpKQ", "youtube.com.evil.example is not one of the platforms"],
    ["https://evil-youtube.com/watch?v=aqz-KE-bpKQ", "evil-youtube.com is not one of the platforms"],
    ["https://youtube.com@evil.example/watch?v=aqz-KE-bpKQ", "user name"],
    ["https://www.instagram.com:8443/p/C7qRsTuVwXy/", "port"],
    // The scheme's own port too: the parser drops it, so it is read from the text as written.
    ["https://www.youtube.com:443/watch?v=aqz-KE-bpKQ", "port"],
    ["http://youtube.com:80/watch?v=aqz-KE-bpKQ", "port"],
    ["youtube.com:443/watch?v=aqz-KE-bpKQ", "port"],
    ["https://youtu.be:/aqz-KE-bpKQ", "port"],
    ["https://wwwyoutube.com/watch?v=aqz-KE-bpKQ", "wwwyoutube.com is not one"],
    ["https://instagram.com.evil.example/p/C7qRsTuVwXy/", "is not one of the platforms"],
    ["https://evilpinterest.com/pin/1055599907085543/", "is not one of the platforms"],
    ["https://pinterest.com.evil.example/pin/1055599907085543/", "is not one of the platforms"],
    ["https://evil.pinterest.com/pin/1055599907085543/", "is not one of the platforms"],
    ["https://x.com.evil.example/NASA/status/1850214830462251210", "is not one of the platforms"],
    ["https://fb.watch.evil.example/aBcD12/", "is not one of the platforms"],
    // Cyrillic у and о: the URL parser writes them as xn-- names, which are not on the list.
    ["https://уoutube.com/watch?v=aqz-KE-bpKQ", "xn--"],
    ["https://www.yоutube.com/watch?v=aqz-KE-bpKQ", "xn--"],
    ["https://xn--youtube-7ya.com/watch?v=aqz-KE-bpKQ", "xn--youtube-7ya.com is not one"],
    // schemes
    ["javascript:alert(1)//youtube.com/watch?v=aqz-KE-bpKQ", "Only http and https"],
    ["ftp://youtube.com/watch?v=aqz-KE-bpKQ", "Only http and https"],
    ["file:///etc/passwd", "Only http and https"],
    ["data:text/html,https://youtu.be/aqz-KE-bpKQ", "Only http and https"],
    // other sites and no URL at all
    ["https://vimeo.com/76979871", "vimeo.com is not one of the platforms"],
    ["http://127.0.0.1/watch?v=aqz-KE-bpKQ", "127.0.0.1 is not one"],
    ["http://169.254.169.254/latest/meta-data/", "is not one of the platforms"],
    ["", "Give the URL"],
    ["   ", "Give the URL"],
    ["not a url at all", "not a URL"],
    // platform URLs that are no post
    ["https://www.youtube.com/@NASA", "names no video"],
    ["https://www.youtube.com/playlist?list=PL123", "names no video"],
    ["https://www.youtube.com/watch?v=short", "11 letters"],
    ["https://youtu.be/aqz-KE-bpKQ/../x", "11 letters"],
    ["https://www.instagram.com/nasa/", "not a post or a reel"],
    ["https://www.instagram.com/stories/nasa/3456789/", "not a post or a reel"],
    ["https://www.instagram.com/p/a%2Fb/", "post code"],
    ["https://www.facebook.com/NASA/", "names no video"],
    ["https://www.facebook.com/NASA/videos/", "names no video"],
    ["https://www.facebook.com/watch/?v=abc", "names no video"],
    ["https://x.com/NASA", "not a post"],
    ["https://x.com/NASA/status/abc", "is a number"],
    ["https://www.linkedin.com/in/someone/", "not a post"],
    ["https://www.linkedin.com/posts/nasa_artemis-AbCd", "not a post"],
    ["https://www.pinterest.com/nasa/boards/", "not a pin"],
    ["https://pin.it/", "no pin code"],
  ])("%s", (text, reason) => {
    const result = recognisePostUrl(text);
    expect(result.ok, JSON.stringify(result)).toBe(false);
    if (!result.ok) expect(result.reason).toContain(reason);
  });

  it("refuses text longer than the limit before parsing it", () => {
    const long = `https://www.youtube.com/watch?v=aqz-KE-bpKQ&x=${"a".repeat(MAX_URL_LENGTH)}`;
    expect(recognisePostUrl(long)).toEqual({
      ok: false,
      reason: `A post URL is at most ${MAX_URL_LENGTH} characters.`,
    });
  });
});

describe("recogniseInstagramProfile", () => {
  it("reads a profile URL or a bare user name", () => {
    expect(recogniseInstagramProfile("https://www.instagram.com/nasa/")).toEqual({ ok: true, username: "nasa" });
    expect(recogniseInstagramProfile("https://instagram.com/NASA?igsh=abc")).toEqual({ ok: true, username: "nasa" });
    expect(recogniseInstagramProfile("@nasa.goddard")).toEqual({ ok: true, username: "nasa.goddard" });
  });

  it("refuses posts, other hosts and look-alikes", () => {
    for (const text of [
      "https://www.instagram.com/p/C7qRsTuVwXy/",
      "https://www.instagram.com/reel/",
      "https://instagram.com.evil.example/nasa/",
      "https://evil.example/nasa",
      "https://instagram.com@evil.example/nasa",
      "nasa/../../x",
    ]) {
      expect(recogniseInstagramProfile(text).ok, text).toBe(false);
    }
  });
});

describe("recognisePostUrl: properties", () => {
  const MAIN_HOSTS = new Set([
    "www.youtube.com",
    "www.instagram.com",
    "www.facebook.com",
    "fb.watch",
    "x.com",
    "www.linkedin.com",
    "www.pinterest.com",
    "pin.it",
  ]);
  const PASTED_HOSTS = [
    "youtube.com",
    "m.youtube.com",
    "music.youtube.com",
    "youtu.be",
    "www.instagram.com",
    "instagr.am",
    "web.facebook.com",
    "fb.watch",
    "twitter.com",
    "x.com",
    "www.linkedin.com",
    "pinterest.co.uk",
    "pin.it",
    "youtube.com.evil.example",
    "evil-youtube.com",
    "xn--youtube-7ya.com",
  ];
  const segment = fc.oneof(
    fc.constantFrom(
      "watch",
      "shorts",
      "live",
      "embed",
      "p",
      "reel",
      "reels",
      "tv",
      "videos",
      "status",
      "posts",
      "pin",
      "share",
      "v",
      "feed",
      "update",
    ),
    fc.stringMatching(/^[A-Za-z0-9_.:%-]{1,24}$/),
    fc.string({ maxLength: 12 }),
  );
  const pasted = fc
    .tuple(
      fc.constantFrom("https://", "http://", "", "ftp://", "https://user@"),
      fc.constantFrom(...PASTED_HOSTS),
      fc.array(segment, { maxLength: 5 }),
      fc.array(
        fc.tuple(fc.constantFrom("v", "si", "utm_source", "igsh", "t", "s", "feature"), fc.string({ maxLength: 14 })),
        {
          maxLength: 3,
        },
      ),
    )
    .map(([scheme, host, path, query]) => {
      const search = new URLSearchParams(query).toString();
      return `${scheme}${host}/${path.join("/")}${search ? `?${search}` : ""}`;
    });

  const videoId = fc.stringMatching(/^[A-Za-z0-9_-]{11}$/);
  const digits = fc.stringMatching(/^[1-9]\d{5,19}$/);
  const tracking = fc.constantFrom(
    "",
    "?si=abc",
    "?utm_source=x&utm_medium=y",
    "?igsh=MQ==",
    "?s=20&t=Ab",
    "?feature=share",
  );
  /** Real forms with random ids: the accepting paths. */
  const wellFormed = fc
    .tuple(
      fc.oneof(
        videoId.map((id) => `https://www.youtube.com/watch?v=${id}`),
        videoId.map((id) => `https://youtu.be/${id}`),
        videoId.map((id) => `https://m.youtube.com/shorts/${id}`),
        fc.stringMatching(/^[A-Za-z0-9_-]{5,40}$/).map((code) => `https://instagram.com/reel/${code}/`),
        digits.map((id) => `https://www.facebook.com/SomePage/videos/${id}/`),
        digits.map((id) => `https://twitter.com/someone/status/${id}`),
        digits.map((id) => `https://www.linkedin.com/posts/someone_topic-activity-${id}-AbCd`),
        digits.map((id) => `https://www.pinterest.fr/pin/${id}/`),
      ),
      tracking,
    )
    .map(([url, query]) => url + query);

  it("never throws; an accepted URL's canonical form is on the platform's main host and recognises to itself", () => {
    let accepted = 0;
    fc.assert(
      fc.property(fc.oneof(pasted, wellFormed, fc.string({ maxLength: 200 })), (text) => {
        const result = recognisePostUrl(text);
        if (!result.ok) {
          expect(result.reason.length).toBeGreaterThan(0);
          return;
        }
        accepted += 1;
        const canonical = new URL(result.ref.url);
        expect(MAIN_HOSTS.has(canonical.hostname)).toBe(true);
        expect(canonical.username + canonical.password + canonical.port).toBe("");
        // The id is all the canonical URL carries: no caller text beyond it survives.
        expect(result.ref.url).toContain(result.ref.id);
        const again = recognisePostUrl(result.ref.url);
        expect(again.ok && again.ref.url).toBe(result.ref.url);
        expect(again.ok && again.ref.id).toBe(result.ref.id);
      }),
      { numRuns: 2000 },
    );
    // The generator reaches the accepting paths too, or the property would say nothing about them.
    expect(accepted).toBeGreaterThan(20);
  });

  it("accepts nothing on a host that is not a platform's", () => {
    fc.assert(
      fc.property(
        fc
          .domain()
          .filter(
            (host) =>
              !/(^|\.)(youtube|youtu|instagram|instagr|facebook|fb|x|twitter|linkedin|pinterest|pin)\.[a-z.]+$/.test(
                host,
              ),
          ),
        fc.array(segment, { maxLength: 4 }),
        (host, path) => {
          expect(recognisePostUrl(`https://${host}/${path.join("/")}?v=aqz-KE-bpKQ`).ok).toBe(false);
        },
      ),
      { numRuns: 500 },
    );
  });
});
