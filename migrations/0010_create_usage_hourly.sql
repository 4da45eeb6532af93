-- Per-API calls and latency per UTC hour, so /benchmarking can show a real last-24-hours window
-- (usage_daily and usage_latency_buckets are per UTC day). The gateway's usage flush writes them
-- beside usage_daily. The hour leads each key because the page reads a range of recent hours
-- across all APIs.
--
-- usage_latency_buckets is no longer written once this ships; it is left in place rather than
-- dropped here because the Worker still running during a deploy writes it in the same D1 batch
-- as usage_daily, and a missing table would fail that whole batch. A later migration can drop it.
CREATE TABLE usage_api_hourly (
  hour_start INTEGER NOT NULL,              -- epoch ms of the start of the UTC hour
  api_slug TEXT NOT NULL,
  calls INTEGER NOT NULL DEFAULT 0,         -- answered 2xx, as in usage_daily
  errors INTEGER NOT NULL DEFAULT 0,        -- answered 4xx/5xx after reaching the API
  total_latency_ms INTEGER NOT NULL DEFAULT 0,
  max_latency_ms INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (hour_start, api_slug)
);

-- Latency per API and hour as a histogram (every answered call, 2xx or not), so p50/p95 over
-- any run of hours is a sum of rows rather than a row per call.
CREATE TABLE usage_latency_hourly (
  hour_start INTEGER NOT NULL,              -- epoch ms of the start of the UTC hour
  api_slug TEXT NOT NULL,
  upper_ms INTEGER NOT NULL,                -- the bucket holds latencies <= upper_ms (and > the bucket below)
  calls INTEGER NOT NULL,
  PRIMARY KEY (hour_start, api_slug, upper_ms)
);
