/**
 * How the command line confirms destructive commands: on a terminal it asks (`[y/N]` on stderr, the answer
 * a line of stdin); without one it refuses unless `--confirm` was given. The rule itself is the registry's
 * (`lib/operations/confirmation.ts`); this module only says how to ask.
 *
 * @module
 */
import { type Confirmation, isYes } from "../lib/operations/confirmation.ts";

/** The command line's way of confirming; `ask` (a terminal's question) is absent without a terminal. */
export function cliConfirmation(
  ask: ((question: string) => Promise<string | null>) | undefined,
  signal?: AbortSignal,
): Confirmation {
  return {
    option: "--confirm",
    hint: "Add --confirm to go ahead.",
    noOneToAsk: "there is no terminal to ask on",
    ask: ask ? async (question) => isYes(await untilAborted(ask(question), signal)) : undefined,
  };
}

/** The answer, or the signal's reason once Ctrl-C aborts it (the command then exits 130). */
function untilAborted<T>(answer: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return answer;
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener("abort", abort, { once: true });
    answer.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}

/**
 * Asks on this process's terminal: the question on stderr, the answer the next line of stdin (null at its
 * end). Undefined when stdin or stderr is not a terminal: nobody would see the question or could answer.
 */
export function terminalQuestion(): ((question: string) => Promise<string | null>) | undefined {
  let interactive = false;
  try {
    interactive = Deno.stdin.isTerminal() && Deno.stderr.isTerminal();
  } catch {
    interactive = false;
  }
  if (!interactive) return undefined;
  return async (question) => {
    await Deno.stderr.write(new TextEncoder().encode(question));
    return await readLine(Deno.stdin);
  };
}

/** One line of `input` (without its end), or null when the input ends first with nothing read. */
export async function readLine(
  input: { read(p: Uint8Array): Promise<number | null> },
): Promise<string | null> {
  const decoder = new TextDecoder();
  const buffer = new Uint8Array(256);
  let text = "";
  while (!text.includes("\n")) {
    const read = await input.read(buffer);
    if (read === null) return text === "" ? null : text;
    text += decoder.decode(buffer.subarray(0, read), { stream: true });
    if (text.length > 4096) break;
  }
  return text.split(/\r?\n/)[0];
}
