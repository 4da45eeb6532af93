/**
 * LinkedIn's answers for the fixture posts (linkedin/fixtures.ts): the public embed card's HTML
 * as LinkedIn serves it to a logged-out visitor (its `data-test-id` markers, the entity-encoded
 * `data-sources` JSON, lazy images in `data-delayed-url`), trimmed to the parts the extractor
 * reads plus some of the markup around them, and the sign-in wall it redirects to. Hand-made for
 * offline use: the ids, texts and media are illustrative, the structure is LinkedIn's.
 */

/** What the embed URL of a post answers. */
export type LinkedinRecord =
  | { page: string }
  | { status: number; headers?: Record<string, string> }
  /** A 302 to the sign-in wall, as LinkedIn answers a visitor it wants signed in. */
  | { authwall: true };

/** The media files the fake CDN serves, by URL without its query. */
export const LINKEDIN_MEDIA: Record<string, { size: number; mimeType: string }> = {};

function file(url: string, size: number, mimeType: string): string {
  LINKEDIN_MEDIA[url.split("?")[0] ?? url] = { size, mimeType };
  return url;
}

const escapeAttribute = (text: string) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;");

function embedPage(card: { urn: string; actor: string; actorHref: string; commentary: string; media: string }): string {
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta name="pageKey" content="public_post_embed">
    <meta name="robots" content="noarchive">
    <meta property="og:title" content="${escapeAttribute(card.actor)} on LinkedIn">
    <meta property="og:image" content="https://static.licdn.com/aero-v1/sc/h/c45fy346jw096z9pbphyyhdz7">
    <title>${card.actor} on LinkedIn</title>
    <link rel="stylesheet" href="https://static.licdn.com/aero-v1/sc/h/2d9sfsblw6b7ud5q6yoiwvfhv">
  </head>
  <body dir="ltr">
    <code id="lixTracking" style="display: none"><!--{"urn":"urn:li:member:0","lixTracking":{}}--></code>
    <article class="relative bg-color-background-container main-feed-activity-embed-card" data-activity-urn="${card.urn}" data-featured-activity-urn="${card.urn}" data-id="main-feed-card">
      <div class="flex items-center font-sans mb-1" data-test-id="main-feed-activity-embed-card__entity-lockup">
        <a href="${card.actorHref}?trk=public_post_embed_feed-actor-image" class="relative" data-tracking-control-name="public_post_embed_feed-actor-image" data-tracking-will-navigate>
          <img class="inline-block relative w-6 h-6" data-delayed-url="https://media.licdn.com/dms/image/v2/C4E0BAQH4v0DfQ8qB2w/company-logo_100_100/company-logo_100_100/0/1630572696213/nasa_logo?e=2147483647&amp;v=beta&amp;t=Hk2pQm1xYz" alt="View organization page for ${card.actor}">
        </a>
        <div class="flex flex-col self-start min-w-0 ml-1">
          <a class="text-sm link-styled no-underline leading-open" href="${card.actorHref}?trk=public_post_embed_feed-actor-name" data-tracking-control-name="public_post_embed_feed-actor-name" data-tracking-will-navigate>
            ${card.actor}
          </a>
          <p class="!text-xs text-color-text-low-emphasis leading-[1.33333] m-0 truncate">8,412,360 followers</p>
          <span class="!text-xs text-color-text-low-emphasis leading-[1.33333] flex"><time class="flex-none">1w</time></span>
        </div>
      </div>
      <div class="attributed-text-segment-list__container relative mt-1 mb-1.5">
        <p class="attributed-text-segment-list__content text-color-text !text-sm whitespace-pre-wrap break-words" dir="ltr" data-test-id="main-feed-activity-embed-card__commentary">${card.commentary}</p>
      </div>
      ${card.media}
      <div class="flex items-center font-sans text-sm main-feed-activity-card__social-actions">
        <a href="https://www.linkedin.com/signup?session_redirect=https%3A%2F%2Fwww%2Elinkedin%2Ecom%2Ffeed%2Fupdate%2F${encodeURIComponent(card.urn)}&amp;trk=public_post_embed_social-actions-reactions" data-test-id="social-actions__reactions" data-num-reactions="4072">
          <span class="font-normal ml-0.5" data-test-id="social-actions__reaction-count">4,072</span>
        </a>
        <a href="https://www.linkedin.com/uas/login?session_redirect=https%3A%2F%2Fwww.linkedin.com%2Ffeed%2Fupdate%2F${encodeURIComponent(card.urn)}&amp;trk=public_post_embed_social-actions-comments" data-test-id="social-actions__comments" data-num-comments="60">60 Comments</a>
      </div>
    </article>
  </body>
</html>`;
}

function videoBlock(sources: { src: string; type: string; "data-bitrate": number }[], poster: string): string {
  return `<div class="share-native-video w-main-feed-card-media" data-test-id="feed-native-video-content">
        <video class="share-native-video__node video-js" data-sources="${escapeAttribute(JSON.stringify(sources))}" data-poster-url="${escapeAttribute(poster)}" data-digitalmedia-asset-urn="urn:li:digitalmediaAsset:D4E05AQGx7Lm2Qw9RzA" data-tracking-id="cxLJWg4wQHm6YtJlx/wNvw==" playsinline>
        </video>
      </div>`;
}

function imagesBlock(images: string[]): string {
  const items = images
    .map(
      (url, index) => `<li class="w-full" data-test-id="feed-images-content__list-item">
          <img class="w-full object-cover" data-delayed-url="${escapeAttribute(url)}" alt="Image ${index + 1} of the post">
        </li>`,
    )
    .join("\n        ");
  return `<ul class="feed-images-content list-none flex flex-wrap" data-test-id="feed-images-content">
        ${items}
      </ul>`;
}

const ARTEMIS_VIDEO = "https://dms.licdn.com/playlist/vid/v2/D4E05AQGx7Lm2Qw9RzA";
const ARTEMIS_SOURCES = [
  {
    src: file(
      `${ARTEMIS_VIDEO}/mp4-640p-30fp-crf28/mp4-640p-30fp-crf28/0/1731402210414?e=2147483647&v=beta&t=aQ3mZ9xLk2`,
      1_048_576,
      "video/mp4",
    ),
    type: "video/mp4",
    "data-bitrate": 280905,
  },
  {
    src: file(
      `${ARTEMIS_VIDEO}/mp4-360p-30fp-crf28/mp4-360p-30fp-crf28/0/1731402210302?e=2147483647&v=beta&t=bR4nA0yMl3`,
      524_288,
      "video/mp4",
    ),
    type: "video/mp4",
    "data-bitrate": 132544,
  },
  {
    src: file(
      `${ARTEMIS_VIDEO}/mp4-720p-30fp-crf28/mp4-720p-30fp-crf28/0/1731402211708?e=2147483647&v=beta&t=cS5oB1zNm4`,
      2_097_152,
      "video/mp4",
    ),
    type: "video/mp4",
    "data-bitrate": 734056,
  },
];
const ARTEMIS_POSTER = file(
  "https://media.licdn.com/dms/image/v2/D4E05AQGx7Lm2Qw9RzA/videocover-high/videocover-high/0/1731402205019?e=2147483647&v=beta&t=dT6pC2aOn5",
  96_256,
  "image/jpeg",
);

const WEBB_IMAGES = [
  file(
    "https://media.licdn.com/dms/image/v2/D4E22AQF1aB2cD3eF4g/feedshare-shrink_2048_1536/feedshare-shrink_2048_1536/0/1730900112233?e=2147483647&v=beta&t=eU7pD3bPo6",
    402_114,
    "image/jpeg",
  ),
  file(
    "https://media.licdn.com/dms/image/v2/D4E22AQH5iJ6kL7mN8o/feedshare-shrink_2048_1536/feedshare-shrink_2048_1536/0/1730900112301?e=2147483647&v=beta&t=fV8qE4cQp7",
    377_020,
    "image/jpeg",
  ),
  file(
    "https://media.licdn.com/dms/image/v2/D4E22AQP9qR0sT1uV2w/feedshare-shrink_1280/feedshare-shrink_1280/0/1730900112399?e=2147483647&v=beta&t=gW9rF5dRq8",
    210_545,
    "image/jpeg",
  ),
];

const MARS_VIDEO = "https://dms.licdn.com/playlist/vid/v2/C5605AQEk2Lm3Nn4Op5";
const MARS_SOURCES = [
  {
    src: file(
      `${MARS_VIDEO}/mp4-720p-30fp-crf28/mp4-720p-30fp-crf28/0/1730100000001?e=2147483647&v=beta&t=hX0sG6eSr9`,
      1_572_864,
      "video/mp4",
    ),
    type: "video/mp4",
    "data-bitrate": 512000,
  },
  {
    src: `${MARS_VIDEO}/hls/0/1730100000002?e=2147483647&v=beta&t=iY1tH7fTs0`,
    type: "application/x-mpegURL",
    "data-bitrate": 0,
  },
];

export const LINKEDIN_AUTHWALL_PAGE = `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta name="pageKey" content="d_authwall">
    <title>Sign Up | LinkedIn</title>
  </head>
  <body>
    <main class="main" id="main-content">
      <h1 class="authwall-join-form__title">Join LinkedIn</h1>
      <form class="join-form" action="https://www.linkedin.com/start/join" method="post">
        <input type="email" name="email-address" autocomplete="username">
        <input type="password" name="password" autocomplete="new-password">
        <button class="join-form__form-body-submit-button" type="submit">Agree &amp; Join</button>
      </form>
      <p class="authwall-join-form__subtitle">Already on LinkedIn? <a href="https://www.linkedin.com/uas/login?trk=authwall">Sign in</a></p>
    </main>
  </body>
</html>`;

/** The body of LinkedIn's status-999 answer: a script sending the browser to the sign-in wall. */
export const LINKEDIN_BLOCK_PAGE = `<html><head>
<script type="text/javascript">
window.onload = function() {
  var trk = "bf";
  var trkInfo = "bf";
  var cookies = document.cookie.split("; ");
  for (var i = 0; i < cookies.length; ++i) {
    if ((cookies[i].indexOf("trkCode=") == 0) && (cookies[i].length > 8)) trk = cookies[i].substring(8);
    else if ((cookies[i].indexOf("trkInfo=") == 0) && (cookies[i].length > 8)) trkInfo = cookies[i].substring(8);
  }
  if (window.location.protocol == "http:") window.location.href = "https:" + window.location.href.substring(window.location.protocol.length);
  else window.location.href = "https://" + window.location.host + "/authwall?trk=" + trk + "&trkInfo=" + trkInfo;
}
</script>
</head></html>`;

/** Recorded answers by post id (the urn's number). */
export const LINKEDIN_RECORDED: Record<string, LinkedinRecord> = {
  "7262145368218238976": {
    page: embedPage({
      urn: "urn:li:activity:7262145368218238976",
      actor: "NASA - National Aeronautics and Space Administration",
      actorHref: "https://www.linkedin.com/company/nasa",
      commentary:
        'The Space Launch System core stage for Artemis II is on the move. <a class="link" href="https://www.linkedin.com/feed/hashtag/artemis?trk=public_post_embed-text" data-tracking-control-name="public_post_embed-text">#Artemis</a><br>Watch it roll out &amp; meet the team behind it.',
      media: videoBlock(ARTEMIS_SOURCES, ARTEMIS_POSTER),
    }),
  },
  "7260033445566778899": {
    page: embedPage({
      urn: "urn:li:activity:7260033445566778899",
      actor: "NASA - National Aeronautics and Space Administration",
      actorHref: "https://www.linkedin.com/company/nasa",
      commentary: "Three new views from the James Webb Space Telescope: a nebula in near- and mid-infrared.",
      media: imagesBlock(WEBB_IMAGES),
    }),
  },
  "7258800112233445566": { authwall: true },
  "7257700112233445566": { status: 404 },
  // The embed's card is gone: LinkedIn renders its posts some other way now.
  "7256600112233445566": {
    page: `<!DOCTYPE html><html><head><title>LinkedIn</title></head><body><div id="root" data-app="feed-embed-v3"></div><script src="https://static.licdn.com/aero-v1/sc/h/embed-v3.js"></script></body></html>`,
  },
  "7255500112233445566": { status: 999 },
  "7254400112233445566": { status: 429, headers: { "retry-after": "120" } },
  "7253300112233445566": {
    page: embedPage({
      urn: "urn:li:activity:7253300112233445566",
      actor: "NASA - National Aeronautics and Space Administration",
      actorHref: "https://www.linkedin.com/company/nasa",
      commentary: "We are hiring engineers for the Artemis program. Apply through USAJOBS.",
      media: "",
    }),
  },
  "7252200112233445566": {
    page: embedPage({
      urn: "urn:li:ugcPost:7252200112233445566",
      actor: "Jane Doe",
      actorHref: "https://uk.linkedin.com/in/jane-doe-4b1a2c3",
      commentary: "Our rover team&#39;s latest drive on Mars, in 720p.",
      media: videoBlock(MARS_SOURCES, `${MARS_VIDEO}/poster.jpg`),
    }),
  },
};
