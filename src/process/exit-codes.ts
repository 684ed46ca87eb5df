// The exit statuses of the server and stdio processes, in one place (docs/deployment.md, "Exit status").

/** A start that failed: the port is in use, the adapter cannot load, the build is missing. */
export const EXIT_STARTUP_FAILED = 1;
/** A configuration refused as given: a bad value, or a setting the chosen adapter cannot apply. */
export const EXIT_BAD_CONFIGURATION = 2;
/** An unexpected failure of the running process (EX_SOFTWARE). */
export const EXIT_INTERNAL = 70;
