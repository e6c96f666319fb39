// `docverify secrets rotate`: re-seals every stored callback secret under a new key. With a
// key file, a new key is made; with DOCVERIFY_SECRET_KEY, its first key is the new one (the
// operator lists the new key first and the old ones after it). Runs with the service stopped:
// a running serve seals new batches under the key it loaded.
import type { Config } from "../config.ts";
import { openStore } from "../store/index.ts";
import { lockDataDir } from "../store/data-dir-lock.ts";
import { Keyring, newKey, readKeyFile, writeKeyFile } from "../keys/secret-keyring.ts";
import { UsageError } from "./keys.ts";

export async function rotateSecrets(config: Config): Promise<string> {
  const unlock = lockDataDir(config.dataDir, config.databaseUrl);
  try {
    const store = await openStore(config);
    try {
      const current = store.keyring();
      const unknown = await store.callbackSecrets.unknownKeyIds(current);
      if (unknown.length > 0)
        throw new UsageError(
          `callback secrets are sealed under key ${unknown.join(", ")}, which no configured key opens; nothing was changed`,
        );

      if (store.keySource() === "environment") {
        const count = await store.callbackSecrets.sealAll(current);
        const others = config.secretKeys.length - 1;
        return (
          `re-sealed ${count} callback secrets under key ${current.currentId}` +
          (others > 0 ? `; the other ${others} key(s) may now be removed from DOCVERIFY_SECRET_KEY` : "")
        );
      }

      // The new key is written beside the old ones before anything is sealed with it, and the
      // old ones are dropped only once every secret is re-sealed: a crash at any point leaves
      // a key file that opens every stored secret.
      const old = readKeyFile(config.dataDir);
      const fresh = newKey();
      writeKeyFile(config.dataDir, [fresh, ...old]);
      const keyring = new Keyring([fresh, ...old]);
      const count = await store.callbackSecrets.sealAll(keyring);
      writeKeyFile(config.dataDir, [fresh]);
      return `re-sealed ${count} callback secrets under new key ${keyring.currentId}; the old key is deleted`;
    } finally {
      await store.close();
    }
  } finally {
    unlock();
  }
}
