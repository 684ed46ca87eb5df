// Viewer entry: picks the language, decodes the #data=v2:… fragment in the browser with the WASM codec, renders the plan
// with its toolbar, and follows hashchange. Everything it shows comes from the modules it wires together (docs/viewer.md).
import { loadCodec } from '../codec/browser.js';
import type { Codec } from '../codec/types.js';
import { parseLink } from '../session/link.js';
import { createEditorHost } from '../planner/host.js';
import type { Draft } from '../planner/tree.js';
import { createSessionOperations, type DecodeSessionLinkResult } from '../session/operations.js';
import { copyText, shareableUrl } from './clipboard.js';
import { el } from '../plan-view/dom.js';
import { createViewerLocale } from '../plan-view/i18n/locale.js';
import { chooseLanguage } from '../plan-view/language.js';
import { browserStorage, readNotesShown, writeNotesShown } from './notes-preference.js';
import { renderPasteForm } from './paste-link.js';
import type { Plan } from '../plan-view/plan.js';
import { describeFailure } from './problems.js';
import { renderPlan } from '../plan-view/render-plan.js';
import { renderProblem, type ProblemText } from '../plan-view/render-problem.js';
import { categoryStyleSheet, labelStyleSheet, printStyleSheet } from '../plan-view/style-sheets.js';
import { createToolbar } from './toolbar.js';
import { handoutOf } from '../plan-view/handout.js';
import { loadLibrary } from './library.js';
import { renderTemplateList } from './template-list.js';

/** The content-hashed codec file and export bundle next to this bundle; set by build.mjs. */
declare const __CODEC_WASM_FILE__: string;
declare const __EXPORT_MODULE_FILE__: string;
declare const __EDITOR_MODULE_FILE__: string;
declare const __EDITOR_STYLE_FILE__: string;
declare const __LIVE_MODULE_FILE__: string;
declare const __LIVE_STYLE_FILE__: string;

type ExportModule = typeof import('./export/index.js');
type EditorModule = typeof import('../planner/ui/mount.js');
type LiveModule = typeof import('../live/mount.js');

/** loadCodec keeps one codec per URL and forgets a failed load, so the next hashchange tries again. */
const getCodec = (): Promise<Codec> => loadCodec(new URL(__CODEC_WASM_FILE__, import.meta.url));
// Started before anything else: the codec streams in and compiles off the main thread while the page sets itself up.
const codecLoading = getCodec();
codecLoading.catch(() => {});

const language = chooseLanguage(location.search, navigator.languages ?? [navigator.language]);
document.documentElement.lang = language;
const locale = createViewerLocale(language);
const { strings } = locale;
const operations = createSessionOperations(getCodec, { baseUrl: `${location.origin}/` });
const storage = browserStorage();

const app = document.getElementById('app') ?? document.body;
const loading = app.querySelector('.loading');
if (loading) loading.textContent = strings.loading;
const header = document.getElementById('page-header');
const footer = document.querySelector('.page-footer');
if (footer) footer.textContent = strings.footer;
const labels = labelStyleSheet(locale);
document.adoptedStyleSheets = [labels];

/** The plan on screen (for the toolbar's actions), and whether its notes are shown. */
let current: Plan | null = null;
let notesShown = readNotesShown(storage);
document.documentElement.dataset['notes'] = notesShown ? 'shown' : 'hidden';
/** A link the paste field already decoded: opening it after the hashchange needs no second decode. */
let prepared: { fragment: string; result: DecodeSessionLinkResult } | null = null;
let generation = 0;

let exportModule: Promise<ExportModule> | undefined;
/** The export bundle, loaded once on the first download; a failed load is forgotten so the next click tries again. */
function loadExports(): Promise<ExportModule> {
  exportModule ??= (import(new URL(__EXPORT_MODULE_FILE__, import.meta.url).href) as Promise<ExportModule>).catch((error: unknown) => {
    exportModule = undefined;
    throw error;
  });
  return exportModule;
}

/** A stylesheet of an on-demand bundle, added to the page; resolves when it applies. */
function loadStyleSheet(file: string, name: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const sheet = document.createElement('link');
    sheet.rel = 'stylesheet';
    sheet.href = new URL(file, import.meta.url).href;
    sheet.addEventListener('load', () => resolve(), { once: true });
    sheet.addEventListener('error', () => reject(new Error(`the ${name} stylesheet did not load`)), { once: true });
    document.head.append(sheet);
  });
}

/** A bundle and its stylesheet, loaded once on first use; a failed load is forgotten, so the next use tries again. */
function onDemand<T>(script: string, style: string, name: string): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= Promise.all([import(new URL(script, import.meta.url).href) as Promise<T>, loadStyleSheet(style, name)])
      .then(([module]) => module)
      .catch((error: unknown) => {
        loading = undefined;
        throw error;
      });
    return loading;
  };
}

/** Edit mode, on the first "Edit plan" or "New plan"; the live view, on the first "Live". */
const loadEditor = onDemand<EditorModule>(__EDITOR_MODULE_FILE__, __EDITOR_STYLE_FILE__, 'editor');
const loadLive = onDemand<LiveModule>(__LIVE_MODULE_FILE__, __LIVE_STYLE_FILE__, 'live');

/**
 * What this window is for (`?view=`): a projector, opened from the live view, shows only what the presenter's window
 * runs; a handout is a participants' link, marked as such on screen and on paper.
 */
const pageView = new URLSearchParams(location.search).get('view');
const projectorMode = pageView === 'projector';
if (pageView === 'handout') document.documentElement.dataset['view'] = 'handout';

/** The live view while it runs. A reload reopens it (this tab's session storage); another link closes it. */
let liveView: { unmount(): void } | null = null;
const LIVE_OPEN = 'sessionplan:live-open';

/** Whether the live view was open in this tab (session storage: a reload keeps it, another tab does not see it). */
function liveWasOpen(): boolean {
  try {
    return sessionStorage.getItem(LIVE_OPEN) === 'on';
  } catch {
    return false;
  }
}

function rememberLiveOpen(open: boolean): void {
  try {
    if (open) sessionStorage.setItem(LIVE_OPEN, 'on');
    else sessionStorage.removeItem(LIVE_OPEN);
  } catch {
    // Storage refused: a reload shows the plan instead of the live view.
  }
}

function leaveLive(): void {
  liveView?.unmount();
  liveView = null;
}

/** The projector for `plan`: the whole window, following the presenter's run of the same link on this device. */
async function showProjector(plan: Plan): Promise<void> {
  let module: LiveModule;
  try {
    module = await loadLive();
  } catch {
    showProblem('problem', { title: strings.liveLoadFailed, message: strings.liveLoadFailed });
    return;
  }
  toolbar.hide();
  app.dataset['state'] = 'projector';
  liveView = module.mountProjector({ container: app, plan, fragment: location.hash, language, locale, storage });
}

/** The live view of the plan on screen, in place of the plan; closing it shows the plan again. */
async function startLive(plan: Plan): Promise<void> {
  let module: LiveModule;
  try {
    module = await loadLive();
  } catch {
    toolbar.announce(strings.liveLoadFailed);
    return;
  }
  if (current !== plan) return;
  toolbar.hide();
  app.dataset['state'] = 'live';
  rememberLiveOpen(true);
  liveView = module.mountLive({
    container: app,
    plan,
    fragment: location.hash,
    language,
    locale,
    storage,
    onClose() {
      leaveLive();
      rememberLiveOpen(false);
      reopen();
      void opening.then(() => toolbar.focusMenu());
    },
  });
}

/** The editor while edit mode is on; a hashchange (another link pasted into the address bar) ends it. */
let editor: { unmount(): void } | null = null;

function leaveEditor(): void {
  editor?.unmount();
  editor = null;
}

/**
 * Edit mode for the plan on screen (`plan`), for a template's plan, or for a new plan (null). The draft is the decoded
 * document; an opened link stays in the address bar until the first valid change (or until an older document's
 * warnings are resolved); a new plan or a template gets its link as soon as its first check answers.
 */
async function startEditing(plan: Plan | null, openedLink: string | null = plan === null ? null : location.href): Promise<void> {
  performance.mark('sessionplan:edit-start');
  let module: EditorModule;
  let codec: Codec;
  try {
    [module, codec] = await Promise.all([loadEditor(), getCodec()]);
  } catch {
    if (app.dataset['state'] === 'plan') toolbar.announce(strings.editorLoadFailed);
    else app.querySelector('.new-plan-line')?.append(` ${strings.editorLoadFailed}`);
    return;
  }
  // An open still decoding must not replace the editor when it ends.
  generation++;
  leaveEditor();
  current = null;
  toolbar.hide();
  document.adoptedStyleSheets = [labels];
  app.dataset['state'] = 'editing';
  app.replaceChildren();
  document.title = plan === null ? strings.newPlan : strings.planPageTitle(plan.workshop.title);
  editor = module.mountEditor({
    container: app,
    host: createEditorHost(codec, `${location.origin}/`),
    draft: plan as Draft | null,
    openedLink,
    language,
    library: loadLibrary,
    onDone() {
      editor = null;
      // The address bar holds the last valid plan: the view opens it (replaceState fires no hashchange).
      reopen();
      void opening.then(() => editButton.focus());
    },
  });
  // Laid out inside the measurement: what the user waits for is the editor on screen (bench:planner reads the marks).
  void app.offsetHeight;
  performance.mark('sessionplan:edit-ready');
  app.querySelector<HTMLElement>('input')?.focus();
}

/** Makes a file from the plan on screen and saves it; the making is measured as `sessionplan:<kind>` (bench:browser reads it). */
async function download(kind: 'calendar' | 'agenda' | 'table', make: (module: ExportModule, plan: Plan) => ReturnType<ExportModule['agendaFile']>): Promise<string> {
  const plan = current;
  if (plan === null) throw new Error('no plan on screen');
  const module = await loadExports();
  performance.mark(`sessionplan:${kind}-start`);
  const file = make(module, plan);
  performance.mark(`sessionplan:${kind}-end`);
  performance.measure(`sessionplan:${kind}`, `sessionplan:${kind}-start`, `sessionplan:${kind}-end`);
  module.saveFile(file);
  return file.name;
}

/**
 * The participants' handout of the plan on screen: a new link of it without notes and facilitator-only blocks, opened
 * with their print layout in a new tab (this tab, where pop-ups are blocked). The link on screen stays as it is.
 */
async function openHandout(): Promise<string> {
  const plan = current;
  if (plan === null) return strings.handoutFailed(strings.noPlanTitle);
  const handout = handoutOf(plan, strings.handoutPlaceholder);
  let link: string;
  try {
    link = (await operations.createSessionLink(handout.plan)).link;
  } catch (error) {
    return strings.handoutFailed(describeFailure(error, strings).message);
  }
  const params = new URLSearchParams(location.search);
  params.set('view', 'handout');
  const address = `${location.pathname}?${params.toString()}${link.slice(link.indexOf('#'))}`;
  const opened = window.open(address, '_blank');
  if (opened === null) location.assign(address);
  else opened.opener = null;
  return strings.handoutOpened(handout.hiddenBlocks);
}

const toolbar = createToolbar(strings, {
  handout: openHandout,
  copyLink: () => copyText(shareableUrl(location.href)),
  print: () => window.print(),
  downloadCalendar: () => download('calendar', (module, plan) => module.calendarFile(plan, locale, { notes: notesShown })),
  downloadAgenda: () => download('agenda', (module, plan) => module.agendaFile(plan, locale, { notes: notesShown })),
  downloadTable: () => download('table', (module, plan) => module.tableFile(plan, locale, { notes: notesShown })),
  live: () => { if (current !== null) void startLive(current); },
  notesChanged(shown) {
    notesShown = shown;
    document.documentElement.dataset['notes'] = shown ? 'shown' : 'hidden';
    writeNotesShown(storage, shown);
  },
});
header?.append(toolbar.element);
const editButton = el('button', 'button', strings.editPlan);
editButton.type = 'button';
editButton.dataset['action'] = 'edit';
editButton.addEventListener('click', () => void startEditing(current));
toolbar.editSlot.append(editButton);

/** `data-state` tells readers of the DOM (and tests) where the page is: rendering → plan, problem, or empty. */
function show(state: 'rendering' | 'plan' | 'problem' | 'empty', content: HTMLElement): void {
  app.dataset['state'] = state;
  app.replaceChildren(content);
}

function showProblem(state: 'problem' | 'empty', problem: ProblemText): void {
  current = null;
  toolbar.hide();
  document.adoptedStyleSheets = [labels];
  const paste = renderPasteForm(strings, openPasted);
  let extra: HTMLElement = paste;
  if (state === 'empty') {
    // The empty page is where a plan starts: "New plan" opens the editor on an empty valid document.
    const start = el('button', 'button new-plan', strings.newPlan);
    start.type = 'button';
    start.addEventListener('click', () => void startEditing(null));
    const actions = el('div', 'empty-actions', paste, el('p', 'new-plan-line', start));
    extra = actions;
    // The templates follow once the library file is here; a page left meanwhile does not get them.
    const shown = generation;
    loadLibrary().then(
      (catalogue) => { if (shown === generation) actions.append(renderTemplateList(catalogue, locale, (document) => void startEditing(document, null))); },
      () => { if (shown === generation) actions.append(el('p', 'templates-failed', strings.templatesLoadFailed)); },
    );
  }
  show(state, renderProblem(problem, strings, { alert: state === 'problem', extra }));
  document.title = state === 'problem' ? strings.problemPageTitle : strings.pageTitle;
}

/** Decodes and renders the current fragment; a newer hashchange wins over a slower older one. */
async function open(event?: Event): Promise<void> {
  const run = ++generation;
  leaveEditor();
  leaveLive();
  // Another link pasted into the address bar ends the live view; a reload keeps it.
  if (event !== undefined) rememberLiveOpen(false);
  const fragment = location.hash;
  if (fragment === '' || fragment === '#') {
    showProblem('empty', { title: strings.noPlanTitle, message: strings.noPlanMessage });
    return;
  }
  try {
    await getCodec();
    performance.mark('sessionplan:decode-start');
    const ready = prepared?.fragment === fragment ? prepared.result : null;
    prepared = null;
    const { session, warnings } = ready ?? await operations.decodeSessionLink(fragment);
    performance.mark('sessionplan:decode-end');
    if (run !== generation) return;
    current = session;
    if (projectorMode) return await showProjector(session);
    document.adoptedStyleSheets = [labels, categoryStyleSheet(session), printStyleSheet(session, locale, pageView === 'handout' ? strings.handoutBadge : undefined)];
    const rendering = renderPlan(session, warnings ?? [], locale);
    if (pageView === 'handout') rendering.view.querySelector('.plan-header')?.prepend(el('p', 'handout-badge', strings.handoutBadge));
    show('rendering', rendering.view);
    toolbar.showFor(session, notesShown);
    document.title = strings.planPageTitle(session.workshop.title);
    // The first screen is laid out inside the measurement (fillFirstScreen forces layout as it goes), so the figure
    // covers what the reader waits for, not just DOM building.
    rendering.fillFirstScreen();
    void app.offsetHeight;
    performance.mark('sessionplan:first-screen');
    // The rest in the same task with one insertion: appending it in chunks over several tasks cost a style, layout and
    // paint pass per chunk, about twice the CPU of doing it once. Its parts skip layout while off screen (styles.css).
    rendering.appendRest();
    void app.offsetHeight;
    app.dataset['state'] = 'plan';
    performance.mark('sessionplan:render-end');
    performance.measure('sessionplan:decode', 'sessionplan:decode-start', 'sessionplan:decode-end');
    performance.measure('sessionplan:first-screen', 'sessionplan:decode-start', 'sessionplan:first-screen');
    performance.measure('sessionplan:open', 'sessionplan:decode-start', 'sessionplan:render-end');
  } catch (error) {
    if (run !== generation) return;
    showProblem('problem', describeFailure(error, strings));
  }
}

/**
 * The paste field's action: a link that decodes becomes the address (and opens through hashchange, without decoding
 * again); one that does not is answered with the same plain sentence as a problem page, and the address stays.
 */
async function openPasted(input: string): Promise<string | null> {
  let fragment: string;
  try {
    fragment = `#data=v2:${parseLink(input)}`;
    await getCodec();
    prepared = { fragment, result: await operations.decodeSessionLink(fragment) };
  } catch (error) {
    prepared = null;
    return describeFailure(error, strings).message;
  }
  if (location.hash === fragment) reopen();
  else {
    // This listener runs after reopen's (added at start-up), so `opening` is the open of the new address.
    const changed = new Promise<void>((resolve) => window.addEventListener('hashchange', () => resolve(), { once: true }));
    location.hash = fragment;
    await changed;
  }
  await opening;
  // The form that had focus is gone: focus goes to the plan's title, where reading starts.
  app.querySelector<HTMLElement>('.plan-title')?.focus();
  return null;
}

let opening: Promise<void> = Promise.resolve();
function reopen(event?: Event): void {
  opening = open(event);
}
window.addEventListener('hashchange', reopen);
reopen();
// Once the page is up and idle, the service worker keeps its files for the next visit without a network.
if ('serviceWorker' in navigator) {
  window.addEventListener('load', () => {
    const register = () => void navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {});
    if ('requestIdleCallback' in window) requestIdleCallback(register, { timeout: 5000 });
    else setTimeout(register, 1000);
  }, { once: true });
}
// The live view was open in this tab before the reload: it opens again on the same plan.
if (liveWasOpen() && !projectorMode) void opening.then(() => { if (current !== null) void startLive(current); });
