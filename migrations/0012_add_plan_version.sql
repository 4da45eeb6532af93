-- Counts an account's plan changes. The gateway caches each key's record with the plan it
-- read, in isolate memory and KV; the account's Meter keeps the newest version it heard of,
-- so a record carrying an older one is reloaded from D1 on the next call
-- (docs/decisions/018-meter-judges-cached-key-records.md).
-- Every statement that changes plan_id or plan_expires_at adds one.
ALTER TABLE users ADD COLUMN plan_version INTEGER NOT NULL DEFAULT 0;
