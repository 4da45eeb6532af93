-- Calls per account, key, API and UTC day, written by the gateway after each response.
-- The dashboard, the admin pages and the benchmarks read these rollups, never raw calls.
CREATE TABLE usage_daily (
  user_id TEXT NOT NULL,
  key_id TEXT NOT NULL,
  api_slug TEXT NOT NULL,
  day TEXT NOT NULL,                        -- YYYY-MM-DD, UTC
  calls INTEGER NOT NULL DEFAULT 0,         -- answered 2xx: what counts against the quota
  errors INTEGER NOT NULL DEFAULT 0,        -- answered 4xx/5xx after reaching the API
  total_latency_ms INTEGER NOT NULL DEFAULT 0,
  max_latency_ms INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (user_id, key_id, api_slug, day)
);
CREATE INDEX usage_daily_user_day ON usage_daily (user_id, day);
CREATE INDEX usage_daily_api_day ON usage_daily (api_slug, day);
