import { applyD1Migrations, env } from "cloudflare:test";

declare module "cloudflare:test" {
  interface ProvidedEnv extends Env {
    TEST_MIGRATIONS: D1Migration[];
  }
}

// Setup files run outside the per-file storage and may run more than once; applying
// migrations is idempotent, so every test file starts from the real schema.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
