// Which Chromium the browser tests launch, apart from playwright-core (the preflight reads it without loading that).

/** Where Debian's package puts it; CHROMIUM_PATH overrides it (macOS, another distribution, a downloaded build). */
export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';

/** The executable the browser tests and benchmarks launch: CHROMIUM_PATH when set and not empty, else Debian's. */
export function chromiumPath(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const configured = env.CHROMIUM_PATH?.trim();
  return configured === undefined || configured === '' ? DEFAULT_CHROMIUM_PATH : configured;
}
