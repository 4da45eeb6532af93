-- Cities for the location API (docs/decisions/011-cities-from-d1.md). The table starts empty:
-- 148,038 rows do not fit in the Worker and would slow every test file that applies the
-- migrations, so `scripts/seed-cities.ts` loads them from country-state-city with
-- `wrangler d1 execute`.
CREATE TABLE cities (
  country_code TEXT NOT NULL,               -- ISO 3166-1 alpha-2: "IN"
  state_code TEXT NOT NULL,                 -- as country-state-city has it: "KA" for Karnataka
  name TEXT NOT NULL,
  latitude REAL,                            -- NULL where the dataset has no coordinate
  longitude REAL,
  -- Unique in the dataset, so re-seeding with ON CONFLICT DO NOTHING is idempotent; its first two
  -- columns are also the one lookup (a state's cities), so the key is the index it needs.
  PRIMARY KEY (country_code, state_code, name)
) WITHOUT ROWID;
