/**
 * A catalog client against a fresh seeded emulator, for the tests of `client.glossary`: the glossary, term
 * and import calls each have their own test file and share this setup.
 *
 * @module
 */
import { CatalogClient } from "../../lib/catalog/client.ts";
import { loadConfig } from "../../lib/config/config.ts";
import { type RunningEmulator, startEmulator } from "../../lib/emulator/mod.ts";

/** Runs `test` with a client of a seeded emulator (short retry waits), then closes the emulator. */
export async function withClient(
  test: (client: CatalogClient, emulator: RunningEmulator) => Promise<void>,
): Promise<void> {
  const emulator = await startEmulator({ seed: true });
  const client = CatalogClient.fromConfig(
    loadConfig({ CATALOG_ACCOUNT_NAME: "emulator", CATALOG_ENDPOINT: emulator.url }),
    { retryBaseMs: 5 },
  );
  try {
    await test(client, emulator);
  } finally {
    await emulator.close();
  }
}
