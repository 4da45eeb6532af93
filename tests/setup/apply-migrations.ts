import { applyD1Migrations, env, type D1Migration } from "cloudflare:test";

// A test-only binding (vitest.config.ts), kept out of the Worker's own Env type on purpose.
const { TEST_MIGRATIONS } = env as typeof env & { TEST_MIGRATIONS: D1Migration[] };

// Setup files run outside the per-file storage and may run more than once; applying
// migrations is idempotent, so every test file starts from the real schema.
await applyD1Migrations(env.DB, TEST_MIGRATIONS);
