// "Start from a template" on the empty page: the library's whole plans in the page's language, each a button that
// opens edit mode on it, with the methods' source and licence said below them.
import type { LibraryCatalogue } from '../library/catalogue.js';
import type { ViewerLocale } from '../plan-view/i18n/locale.js';
import { el } from '../plan-view/dom.js';
import type { Plan } from '../plan-view/plan.js';

/** The list of templates; `start` opens edit mode on the chosen one's document. */
export function renderTemplateList(catalogue: LibraryCatalogue, locale: ViewerLocale, start: (document: Plan) => void): HTMLElement {
  const { language, strings } = locale;
  const list = el('ul', 'template-list');
  for (const template of catalogue.templates) {
    const document = template.documents[language] as unknown as Plan;
    const minutes = document.items.reduce((sum, item) => sum + item.duration, 0);
    const button = el('button', 'button template-start', template.title[language]);
    button.type = 'button';
    button.dataset['template'] = template.key;
    const summary = el('p', 'template-summary', template.summary[language], el('span', 'template-length', strings.templateLength(locale.formatDuration(minutes))));
    summary.id = `template-${template.key}`;
    button.setAttribute('aria-describedby', summary.id);
    button.addEventListener('click', () => start(structuredClone(document)));
    list.append(el('li', 'template', button, summary));
  }
  const license = el('a', '', strings.templatesLicense);
  license.href = catalogue.methodLicense;
  license.rel = 'license noopener';
  license.target = '_blank';
  const heading = el('h2', 'templates-title', strings.templatesTitle);
  heading.id = 'templates-title';
  const section = el('section', 'templates', heading, list, el('p', 'templates-source', `${catalogue.methodSource[language]} `, license));
  section.setAttribute('aria-labelledby', heading.id);
  return section;
}
