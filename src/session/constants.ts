// The session document's plain limits and patterns (docs/import-guide.md), apart from the zod schemas that use them.

/** Real clock times only: 00:00 to 23:59. */
export const TIME_PATTERN = /^(?:[01][0-9]|2[0-3]):[0-5][0-9]$/;
export const COLOR_PATTERN = /^#[0-9A-Fa-f]{6}$/;
/** lanePersons keys: a lane index as written by JSON.stringify of a number, lanes being at most 10. */
export const LANE_KEY_PATTERN = /^[0-9]$/;
export const MIN_LANES = 1;
export const MAX_LANES = 10;
export const DEFAULT_LANES = 2;
export const MAX_DURATION_MINUTES = 1440;
/** At most this many items in the whole tree, containers and children alike. */
export const MAX_ITEMS = 500;
export const SESSION_VERSION = '1.0';
export const MAX_TITLE_CHARS = 200;
export const MAX_NAME_CHARS = 100;
/** Entries of blockTypes, persons and every list of person IDs: far beyond real plans, and it bounds validation work. */
export const MAX_LIST_ENTRIES = 1000;
