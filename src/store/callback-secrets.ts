// Callback secrets at rest, across the whole table: sealing what an older release stored in
// plaintext, finding ciphertexts no key can open, and re-sealing everything under a new key.
import type { Db } from "./db";
import { sealedKeyId, type Keyring } from "../keys/secret-keyring";

interface SecretRow {
  id: string;
  callback_secret: string;
  callback_secret_sealed: string | null;
}

export class CallbackSecretStore {
  constructor(private readonly db: Db) {}

  private rows(): SecretRow[] {
    return this.db.query("SELECT id, callback_secret, callback_secret_sealed FROM batches").all() as SecretRow[];
  }

  /** Key ids that sealed some secret and that `keyring` does not hold. */
  unknownKeyIds(keyring: Keyring): string[] {
    const ids = new Set<string>();
    for (const row of this.rows()) {
      const keyId = row.callback_secret_sealed === null ? null : sealedKeyId(row.callback_secret_sealed);
      if (row.callback_secret_sealed !== null && (keyId === null || !keyring.has(keyId))) ids.add(keyId ?? "(unreadable)");
    }
    return [...ids].sort();
  }

  /**
   * Seals every plaintext secret (rows written before secrets were sealed) and re-seals every
   * secret not sealed under the keyring's current key, in one transaction; then checkpoints
   * the WAL so the old bytes leave the log too (secure_delete zeroes them in the file).
   * Returns how many rows changed.
   */
  sealAll(keyring: Keyring): number {
    const changed = this.db
      .transaction((): number => {
        const update = this.db.query("UPDATE batches SET callback_secret = '', callback_secret_sealed = ? WHERE id = ?");
        let count = 0;
        for (const row of this.rows()) {
          const plaintext =
            row.callback_secret_sealed === null
              ? row.callback_secret
              : sealedKeyId(row.callback_secret_sealed) === keyring.currentId
                ? null
                : keyring.open(row.callback_secret_sealed, row.id);
          if (plaintext === null) continue;
          update.run(keyring.seal(plaintext, row.id), row.id);
          count++;
        }
        return count;
      })
      .immediate();
    if (changed > 0) this.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    return changed;
  }
}
