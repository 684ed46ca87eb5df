// Entry of the MCP App plan view: the host handshake, then the plan of the tool call the host shows it for.
// First: it configures zod before any module that builds a schema runs (zod-jitless.ts).
import { zodConfig } from './zod-jitless.js';
import { SessionError } from '../session/errors.js';
import type { TolerantSession } from '../session/schema.js';
import { createViewerLocale } from '../plan-view/i18n/locale.js';
import type { Language } from '../plan-view/i18n/strings.js';
import { languageOfTag } from '../plan-view/language.js';
import { HostClient } from './host-client.js';
import { applyContext, languageOfContext, mergeContext, type HostContext } from './host-context.js';
import { createViewPage, type ViewWords } from './render.js';
import { VIEW_STRINGS } from './strings.js';
import { errorTextOf, linkToOpen, planOfCreateInput, planOfDecodeResult, structuredOf, toolKindOf, type LinkToOpen, type ToolKind, type ToolResult } from './tool-data.js';
import { reportSize } from './size.js';

/** The package version, set by build.mjs. */
declare const __VIEW_VERSION__: string;

/** The stable MCP Apps revision this view speaks. */
const APPS_PROTOCOL_VERSION = '2026-01-26';

if (zodConfig.jitless !== true) throw new Error('zod must be configured before the session schemas are built');

const root = document.getElementById('app') ?? document.body;
const baseUrl = document.querySelector<HTMLMetaElement>('meta[name="sessionplan-base-url"]')?.content ?? 'https://sessionplan.de/';
let context: HostContext = {};
/**
 * The words in one language. Made before any plan arrives (first from the browser's language, then from the host's
 * locale): the first Intl format of a page costs tens of milliseconds (docs/viewer.md), which would otherwise land in
 * the first render.
 */
const wordsFor = (language: Language): ViewWords => ({ locale: createViewerLocale(language), view: VIEW_STRINGS[language] });
let words = wordsFor(languageOfTag(navigator.language));
const page = createViewPage(root, words);
page.setWords(words);
const host = new HostClient(window.parent, window);

let args: Record<string, unknown> | undefined;
let result: ToolResult | undefined;
/** The plan being shown, kept to draw it again when the host's locale changes. */
let shownPlan: { plan: TolerantSession; warnings: string[] } | undefined;
/** Redraws what is shown now with the current words. */
let redraw: () => void = () => page.showWaiting();
redraw();

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function kind(): ToolKind | undefined {
  return toolKindOf(context.toolInfo?.tool?.name, args, result);
}

function showPlan(plan: TolerantSession, warnings: string[]): void {
  shownPlan = { plan, warnings };
  redraw = () => page.showPlan(plan, warnings);
  redraw();
}

function showProblem(sentence: (w: ViewWords) => string, detail: string): void {
  shownPlan = undefined;
  redraw = () => page.showProblem(sentence(words), detail);
  redraw();
}

function openLink(url: string): void {
  page.setStatus('');
  host.request('ui/open-link', { url }).catch(() => page.setStatus(words.view.linkNotOpened));
}

/** A create's plan is in its input, so it is shown as soon as the input arrives; the link follows with the result. */
function onToolInput(params: Record<string, unknown>): void {
  args = isObject(params.arguments) ? params.arguments : {};
  if (result !== undefined || kind() !== 'create') return;
  performance.mark('sessionplan-view:received');
  try {
    showPlan(planOfCreateInput(args), []);
  } catch (error) {
    // An invalid session: the tool refuses it too, and its result says why.
    if (!(error instanceof SessionError)) throw error;
    return;
  }
  performance.mark('sessionplan-view:rendered');
}

function onToolResult(params: Record<string, unknown>): void {
  result = params as ToolResult;
  const tool = kind();
  if (result.isError === true) {
    offerOpen(undefined);
    showProblem((w) => (tool === 'create' ? w.view.createFailed : w.locale.strings.cannotOpenTitle), errorTextOf(result));
    return;
  }
  const structured = structuredOf(result);
  if (tool === undefined || structured === undefined) {
    showProblem((w) => w.view.notShown, '');
    return;
  }
  if (tool === 'decode') {
    performance.mark('sessionplan-view:received');
    try {
      const { plan, warnings } = planOfDecodeResult(structured);
      showPlan(plan, warnings);
      performance.mark('sessionplan-view:rendered');
    } catch (error) {
      showProblem((w) => w.view.notShown, error instanceof Error ? error.message : String(error));
      return;
    }
  } else if (shownPlan === undefined) {
    // No usable input arrived (a host may skip it): what the result says about the plan, and the link to all of it.
    const summary = isObject(structured.summary) ? structured.summary : {};
    const title = typeof summary.title === 'string' ? summary.title : '';
    const blocks = typeof summary.blockCount === 'number' ? summary.blockCount : 0;
    const minutes = typeof summary.totalDuration === 'number' ? summary.totalDuration : 0;
    redraw = () => page.showSummary(title, words.view.summary(blocks, words.locale.formatDuration(minutes)));
    redraw();
  }
  offerOpen(linkToOpen(tool, args, structured, baseUrl));
}

/** The button for the snapshot on PUBLIC_BASE_URL, and the other site a given link named, in the page's words. */
let offered: LinkToOpen | undefined;
function offerOpen(link: LinkToOpen | undefined): void {
  offered = link;
  const note = link?.otherOrigin === undefined ? '' : words.view.otherOrigin(link.otherOrigin, new URL(baseUrl).origin);
  page.offerLink(link?.url, openLink, note);
}

function onContext(update: Record<string, unknown>): void {
  context = mergeContext(context, update);
  applyContext(document.documentElement, context);
  const language = languageOfContext(context);
  if (language === words.locale.language) return;
  words = wordsFor(language);
  page.setWords(words);
  redraw();
  if (offered !== undefined) offerOpen(offered);
}

host.onNotification('ui/notifications/tool-input', onToolInput);
host.onNotification('ui/notifications/tool-result', onToolResult);
host.onNotification('ui/notifications/tool-cancelled', (params) => {
  if (result === undefined) showProblem((w) => w.view.cancelled, typeof params.reason === 'string' ? params.reason : '');
});
host.onNotification('ui/notifications/host-context-changed', onContext);
host.onRequest('ui/resource-teardown', () => ({}));
host.onRequest('ping', () => ({}));

const initialized = await host.request('ui/initialize', {
  appInfo: { name: 'sessionplan-plan-view', version: __VIEW_VERSION__ },
  appCapabilities: { availableDisplayModes: ['inline'] },
  protocolVersion: APPS_PROTOCOL_VERSION,
});
onContext(isObject(initialized.hostContext) ? initialized.hostContext : {});
host.notify('ui/notifications/initialized', {});
reportSize((size) => host.notify('ui/notifications/size-changed', size));
