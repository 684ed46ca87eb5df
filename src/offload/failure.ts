// A failure that crosses from an offload thread to the event loop: name, message and stack, revived as the cause of an error.

/** What a thread posts of an error (an Error itself does not survive the structured clone with its class and stack). */
export interface ThreadFailure {
  readonly name: string;
  readonly message: string;
  readonly stack: string | undefined;
}

/** `error` as a thread posts it. */
export function threadFailure(error: unknown): ThreadFailure {
  if (error instanceof Error) return { name: error.name, message: error.message, stack: error.stack };
  return { name: typeof error, message: String(error), stack: undefined };
}

/** The error the event loop reports: where it happened, with the thread's error as its cause (its stack included). */
export function revivedFailure(failure: ThreadFailure, where: string): Error {
  const cause = new Error(failure.message);
  cause.name = failure.name;
  cause.stack = failure.stack ?? `${failure.name}: ${failure.message}`;
  return new Error(`${where} failed`, { cause });
}
