-- The admin's AI images (docs/decisions/063-ai-prompt-to-image.md): one row per generation,
-- the ledger its plan's day and month limits are counted from. A row is written before the
-- model is called, by one INSERT … SELECT that counts both windows, so calls arriving together
-- cannot both pass; a call that produced no image deletes its row again. The image itself,
-- with its prompt and style, is in the AI_IMAGES R2 bucket under `users/<user_id>/<id>`.
-- Not a rate_limit_windows bucket: the daily housekeeping deletes those a day after they open,
-- which would empty a month's count every night.
CREATE TABLE ai_image_generations (
  id TEXT PRIMARY KEY,                      -- the R2 object's name: <inverted time>-<random>
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL               -- ms since the epoch; the windows are UTC days and months
);
CREATE INDEX ai_image_generations_user_time ON ai_image_generations (user_id, created_at);
