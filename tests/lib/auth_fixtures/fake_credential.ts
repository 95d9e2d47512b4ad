/**
 * In-process stand-ins for the token tests: a credential that counts its calls on a clock the test moves,
 * and a logger that keeps its lines.
 *
 * @module
 */
import type { AccessToken, TokenCredential } from "../../../lib/deps/azure_identity.ts";
import { createLogger, type Logger } from "../../../lib/core/log.ts";

/** A credential that hands out `token-1`, `token-2`, … and counts calls; `fail` makes the next calls throw. */
export function fakeCredential(lifetimeMs: number, clock: { now: number }) {
  const state = {
    calls: 0,
    fail: undefined as Error | undefined,
    refreshAfterMs: undefined as number | undefined,
    gate: undefined as Promise<void> | undefined,
  };
  const credential: TokenCredential = {
    async getToken(): Promise<AccessToken> {
      state.calls++;
      const n = state.calls;
      if (state.gate) await state.gate;
      if (state.fail) throw state.fail;
      return {
        token: `token-${n}`,
        expiresOnTimestamp: clock.now + lifetimeMs,
        refreshAfterTimestamp: state.refreshAfterMs === undefined
          ? undefined
          : clock.now + state.refreshAfterMs,
      };
    },
  };
  return { credential, state };
}

export function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return Object.assign(createLogger("debug", { write: (line) => lines.push(line) }), { lines });
}
