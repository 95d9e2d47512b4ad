/**
 * Subprocess side of the managed-identity tests in `../auth_test.ts`. The credential chain reads the process
 * environment when it is built, so it runs here, in a process whose environment the test sets up, rather
 * than in the shared test process.
 *
 * Usage: `chain_token.ts describe` prints the provider's kind and description; `chain_token.ts tokens
 * <sleep ms>` asks for three tokens at once, one more at once, and (when the sleep is above 0) one more
 * after sleeping. Prints one JSON object on stdout; debug logs go to stderr.
 *
 * @module
 */
import { createTokenProvider } from "../../../lib/auth/token_provider.ts";
import { loadConfig } from "../../../lib/config/config.ts";
import { createLogger } from "../../../lib/core/log.ts";
import { GovcatError } from "../../../lib/core/errors.ts";

const [mode = "tokens", sleepArg = "0"] = Deno.args;
const provider = createTokenProvider(loadConfig(Deno.env.toObject()), { logger: createLogger("debug") });
const report: Record<string, unknown> = { kind: provider.kind, description: provider.description };

if (mode === "tokens") {
  try {
    report.concurrent = await Promise.all([provider.getToken(), provider.getToken(), provider.getToken()]);
    report.again = await provider.getToken();
    const sleepMs = Number(sleepArg);
    if (sleepMs > 0) {
      await new Promise((resolve) => setTimeout(resolve, sleepMs));
      report.afterSleep = await provider.getToken();
    }
    report.descriptionAfter = provider.description;
  } catch (error) {
    report.error = {
      name: error instanceof Error ? error.name : typeof error,
      message: error instanceof Error ? error.message : String(error),
      hint: error instanceof GovcatError ? error.hint : undefined,
      status: (error as { status?: number }).status,
    };
  }
}
console.log(JSON.stringify(report));
