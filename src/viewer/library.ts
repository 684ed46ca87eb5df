// The library of methods and templates (src/library/), as the page has it: one static JSON file of the build, fetched
// once when first needed (the service worker keeps it for use without a network).
import type { LibraryCatalogue } from '../library/catalogue.js';

/** The hashed library file next to this bundle; set by build.mjs. */
declare const __LIBRARY_FILE__: string;

let loading: Promise<LibraryCatalogue> | undefined;

/** The library; a failed load is forgotten, so the next use tries again. */
export function loadLibrary(): Promise<LibraryCatalogue> {
  loading ??= fetch(new URL(__LIBRARY_FILE__, import.meta.url))
    .then(async (response) => {
      if (!response.ok) throw new Error(`the library answered ${response.status}`);
      const catalogue = (await response.json()) as LibraryCatalogue;
      if (!Array.isArray(catalogue.templates) || !Array.isArray(catalogue.methods)) throw new Error('the library file has another shape');
      return catalogue;
    })
    .catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
  return loading;
}
