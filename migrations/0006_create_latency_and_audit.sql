-- Latency per API and day as a histogram, so the benchmarking page can read p50/p95 without
-- keeping every call; and the audit trail of what the admin changed by hand.
CREATE TABLE usage_latency_buckets (
  api_slug TEXT NOT NULL,
  day TEXT NOT NULL,                        -- YYYY-MM-DD, UTC
  upper_ms INTEGER NOT NULL,                -- the bucket holds latencies <= upper_ms (and > the bucket below)
  calls INTEGER NOT NULL,
  PRIMARY KEY (api_slug, day, upper_ms)
);

CREATE TABLE admin_audit (
  id TEXT PRIMARY KEY,                      -- aud_<random>
  admin_user_id TEXT,                       -- who did it (NULL once that account is gone)
  target_user_id TEXT,
  action TEXT NOT NULL,                     -- e.g. grant-plan
  detail TEXT NOT NULL,                     -- JSON: what changed, from what to what
  created_at INTEGER NOT NULL
);
CREATE INDEX admin_audit_target ON admin_audit (target_user_id, created_at);
