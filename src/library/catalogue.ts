// The whole library as data: the page's static library file (written by src/viewer/build.mjs) and the MCP templates
// resource both hold exactly this.
import { LICENSE_URL, METHOD_SOURCE, METHODS, type Bilingual, type Language, type Method } from './methods.js';
import { TEMPLATES, type TemplateDocument } from './templates.js';

export interface CatalogueTemplate {
  readonly key: string;
  readonly title: Bilingual;
  readonly summary: Bilingual;
  readonly documents: Readonly<Record<Language, TemplateDocument>>;
}

export interface LibraryCatalogue {
  readonly templates: readonly CatalogueTemplate[];
  readonly methods: readonly Method[];
  /** The sentence naming the methods' source and licence, said wherever a method is used. */
  readonly methodSource: Bilingual;
  readonly methodLicense: string;
}

export function libraryCatalogue(): LibraryCatalogue {
  return {
    templates: TEMPLATES.map((template) => ({ key: template.key, title: template.title, summary: template.summary, documents: { de: template.document('de'), en: template.document('en') } })),
    methods: METHODS,
    methodSource: METHOD_SOURCE,
    methodLicense: LICENSE_URL,
  };
}

