// `docverify migrate`: brings the database's schema up to this release's. `serve` does the
// same at start, under the same lock, so this is for migrating once before a rollout (and
// for seeing that nothing is left to apply); instances starting later find it done.
import type { Config } from "../config.ts";
import { openDatabase } from "../store/index.ts";

export async function migrate(config: Config): Promise<string> {
  const db = await openDatabase(config);
  try {
    const { found, current } = db.schema;
    const applied = current - found;
    return applied === 0
      ? `${db.engine} schema at version ${current}; nothing to apply`
      : `${db.engine} schema at version ${current}: applied ${applied} migration${applied === 1 ? "" : "s"} (was ${found})`;
  } finally {
    await db.close();
  }
}
