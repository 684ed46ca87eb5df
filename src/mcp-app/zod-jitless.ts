// Imported first by main.ts, so it runs before any module that builds a zod schema: zod then never compiles parsers.
// Object schemas probe `new Function` when they are built, to decide whether they may compile their parsers; under
// the host's CSP (no 'unsafe-eval') the probe is refused and reported as a CSP violation, though zod catches it. The
// session code needs no compiled parsers (its walk asks zod about single values).
import * as z from 'zod';

/**
 * zod's global configuration after the change. An export main.ts reads, not a bare `import './…'`: the package is
 * marked free of side effects, so a bundler drops a module imported for its effect alone.
 */
export const zodConfig = z.config({ jitless: true });
