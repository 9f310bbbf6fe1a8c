// The PostgreSQL server the tests make their throw-away databases on (storage/postgres/testing/):
// read here because only config/ reads the environment. `npm test`'s global set-up
// (test/postgres-server.ts) names it in WREN_TEST_POSTGRES_URL; a developer may too.

export const DEFAULT_TEST_POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/postgres";

export function testPostgresUrl(env: Record<string, string | undefined> = process.env): string {
  return env.WREN_TEST_POSTGRES_URL || DEFAULT_TEST_POSTGRES_URL;
}
