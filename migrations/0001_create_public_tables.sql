-- Tables behind the public site: the bug-report form, the newsletter, and the fixed-window
-- counters that throttle both per client address.

CREATE TABLE contact_messages (
  id TEXT PRIMARY KEY,              -- msg_<random>
  username TEXT NOT NULL,           -- may be empty: the form's name has no rule (docs/product.md#contact-rules)
  email TEXT NOT NULL,
  message TEXT NOT NULL,
  created_at INTEGER NOT NULL       -- epoch ms
);
CREATE INDEX contact_messages_created_at ON contact_messages (created_at);

CREATE TABLE newsletter_subscriptions (
  id TEXT PRIMARY KEY,              -- sub_<random>
  email TEXT NOT NULL UNIQUE,       -- normalised: trimmed, lower-cased
  created_at INTEGER NOT NULL
);

-- One row per (bucket, window). `bucket` names the limit and a SHA-256 of the client
-- address, never the address itself.
CREATE TABLE rate_limit_windows (
  bucket TEXT NOT NULL,
  window_start INTEGER NOT NULL,    -- epoch ms, aligned to the window length
  hits INTEGER NOT NULL,
  PRIMARY KEY (bucket, window_start)
);
CREATE INDEX rate_limit_windows_window_start ON rate_limit_windows (window_start);
