-- The URL shortener: links and their clicks per day, referrer host and country.
CREATE TABLE short_links (
  id TEXT PRIMARY KEY,                      -- lnk_<random>
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  alias TEXT NOT NULL UNIQUE,               -- [A-Za-z0-9_-]{3,30}, case-sensitive
  url TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER,                       -- NULL: never
  clicks INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX short_links_user_created ON short_links (user_id, created_at);

CREATE TABLE short_link_clicks (
  link_id TEXT NOT NULL REFERENCES short_links (id) ON DELETE CASCADE,
  day TEXT NOT NULL,                        -- YYYY-MM-DD, UTC
  referrer TEXT NOT NULL,                   -- the referring host, or '' for none
  country TEXT NOT NULL,                    -- ISO alpha-2 from the edge, or '' when unknown
  clicks INTEGER NOT NULL,
  PRIMARY KEY (link_id, day, referrer, country)
);
