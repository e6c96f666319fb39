// Callback secrets at rest, across the whole table: sealing what an older release stored in
// plaintext, finding ciphertexts no key can open, and re-sealing everything under a new key.
import type { Database, Sql } from "./database.ts";
import { sealedKeyId, type Keyring } from "../keys/secret-keyring.ts";

interface SecretRow {
  id: string;
  callback_secret: string;
  callback_secret_sealed: string | null;
}

export class CallbackSecretStore {
  constructor(private readonly db: Database) {}

  private rows(sql: Sql): Promise<SecretRow[]> {
    return sql.all<SecretRow>("SELECT id, callback_secret, callback_secret_sealed FROM batches");
  }

  /** Key ids that sealed some secret and that `keyring` does not hold. */
  async unknownKeyIds(keyring: Keyring): Promise<string[]> {
    const ids = new Set<string>();
    for (const row of await this.rows(this.db)) {
      const keyId = row.callback_secret_sealed === null ? null : sealedKeyId(row.callback_secret_sealed);
      if (row.callback_secret_sealed !== null && (keyId === null || !keyring.has(keyId)))
        ids.add(keyId ?? "(unreadable)");
    }
    return [...ids].sort();
  }

  /**
   * Seals every plaintext secret (rows written before secrets were sealed) and re-seals every
   * secret not sealed under the keyring's current key, in one transaction; then scrubs the
   * old bytes from the database files as far as the engine allows. Returns how many rows changed.
   */
  async sealAll(keyring: Keyring): Promise<number> {
    const changed = await this.db.transaction(async (tx): Promise<number> => {
      let count = 0;
      for (const row of await this.rows(tx)) {
        const plaintext =
          row.callback_secret_sealed === null
            ? row.callback_secret
            : sealedKeyId(row.callback_secret_sealed) === keyring.currentId
              ? null
              : keyring.open(row.callback_secret_sealed, row.id);
        if (plaintext === null) continue;
        await tx.run("UPDATE batches SET callback_secret = '', callback_secret_sealed = ? WHERE id = ?", [
          keyring.seal(plaintext, row.id),
          row.id,
        ]);
        count++;
      }
      return count;
    });
    if (changed > 0) await this.db.scrub("batches");
    return changed;
  }
}
