import { applyD1Migrations, type D1Migration } from "cloudflare:test";
import { env } from "cloudflare:workers";

// Idempotent: applies only what each D1 has not seen yet. Every account database (ADR 0060) runs the same migrations.
const migrations = (env as unknown as { TEST_MIGRATIONS: D1Migration[] }).TEST_MIGRATIONS;
await applyD1Migrations(env.DB, migrations);
await applyD1Migrations(env.DB_SHARD_1, migrations);
