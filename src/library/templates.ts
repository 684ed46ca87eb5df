// Whole plans to start from (retrospective, kick-off, strategy day, design sprint day), in German and English, built
// as session documents from the methods and a few plain blocks.
import { METHOD_SOURCE, methodByKey, methodDescription, type Bilingual, type Language } from './methods.js';

/** A session document as create accepts it (canonical keys, defaults filled). */
export type TemplateDocument = {
  readonly version: '1.0';
  readonly workshop: { readonly title: string; readonly description: string; readonly date: null; readonly startTime: string };
  readonly blockTypes: readonly { readonly id: string; readonly name: string; readonly color: string }[];
  readonly persons: readonly never[];
  readonly items: readonly TemplateItem[];
};

type TemplateBlock = {
  readonly type: 'block';
  readonly id: string;
  readonly title: string;
  readonly duration: number;
  readonly blockTypeId: string | null;
  readonly personIds: readonly never[];
  readonly description: string;
  readonly notes: string;
  readonly material: string;
  readonly fixedStartTime: string | null;
  readonly laneIndex: number;
};
type TemplateItem =
  | TemplateBlock
  | { readonly type: 'group'; readonly id: string; readonly title: string; readonly duration: number; readonly description: string; readonly notes: string; readonly fixedStartTime: string | null; readonly children: readonly TemplateItem[] }
  | {
      readonly type: 'breakout';
      readonly id: string;
      readonly title: string;
      readonly duration: number;
      readonly description: string;
      readonly notes: string;
      readonly fixedStartTime: string | null;
      readonly lanes: number;
      readonly sameInAllBreakouts: boolean;
      readonly lanePersons: Readonly<Record<string, never>>;
      readonly children: readonly TemplateBlock[];
    };

export interface Template {
  readonly key: string;
  readonly title: Bilingual;
  /** One sentence: what it is for. */
  readonly summary: Bilingual;
  document(language: Language): TemplateDocument;
}

/** The categories every template uses, in the page's colours. */
const CATEGORIES = [
  { id: 'input', name: { de: 'Input', en: 'Input' }, color: '#2d5bd7' },
  { id: 'interaction', name: { de: 'Interaktion', en: 'Interaction' }, color: '#2a9d8f' },
  { id: 'break', name: { de: 'Pause', en: 'Break' }, color: '#c9a227' },
] as const;
type Category = (typeof CATEGORIES)[number]['id'];

/** Builds one template's items in one language, numbering their IDs in order. */
class Builder {
  #next = 1;
  constructor(readonly language: Language) {}

  #id(): string {
    return `item-${this.#next++}`;
  }

  /** A plain block. */
  block(title: Bilingual, duration: number, category: Category | null, options: { description?: Bilingual; material?: Bilingual; fixed?: string; lane?: number } = {}): TemplateBlock {
    const l = this.language;
    return {
      type: 'block', id: this.#id(), title: title[l], duration, blockTypeId: category, personIds: [],
      description: options.description?.[l] ?? '', notes: '', material: options.material?.[l] ?? '', fixedStartTime: options.fixed ?? null, laneIndex: options.lane ?? 0,
    };
  }

  /** A block running a method of the library, its source named at the end of its description. */
  method(key: string, options: { duration?: number; lane?: number } = {}): TemplateBlock {
    const method = methodByKey(key);
    const description = { de: methodDescription(method, METHOD_SOURCE, 'de'), en: methodDescription(method, METHOD_SOURCE, 'en') };
    return this.block(method.title, options.duration ?? method.duration, 'interaction', { description, material: method.material, lane: options.lane ?? 0 });
  }

  group(title: Bilingual, children: readonly TemplateItem[], description?: Bilingual): TemplateItem {
    const duration = children.reduce((sum, child) => sum + child.duration, 0);
    return { type: 'group', id: this.#id(), title: title[this.language], duration, description: description?.[this.language] ?? '', notes: '', fixedStartTime: null, children };
  }

  /** A breakout whose children sit one per lane, in order. */
  breakout(title: Bilingual, duration: number, children: readonly TemplateBlock[]): TemplateItem {
    return {
      type: 'breakout', id: this.#id(), title: title[this.language], duration, description: '', notes: '', fixedStartTime: null,
      lanes: children.length, sameInAllBreakouts: false, lanePersons: {}, children,
    };
  }
}

function documentOf(title: Bilingual, description: Bilingual, startTime: string, language: Language, items: (b: Builder) => TemplateItem[]): TemplateDocument {
  return {
    version: '1.0',
    workshop: { title: title[language], description: description[language], date: null, startTime },
    blockTypes: CATEGORIES.map((category) => ({ id: category.id, name: category.name[language], color: category.color })),
    persons: [],
    items: items(new Builder(language)),
  };
}

const BREAK: Bilingual = { de: 'Pause', en: 'Break' };
const LUNCH: Bilingual = { de: 'Mittagspause', en: 'Lunch' };

export const TEMPLATES: readonly Template[] = [
  {
    key: 'retrospective',
    title: { de: 'Retrospektive (90 Minuten)', en: 'Retrospective (90 minutes)' },
    summary: { de: 'Zurückblicken, verstehen, einen nächsten Schritt vereinbaren.', en: 'Look back, understand, agree on a next step.' },
    document(language) {
      return documentOf(this.title, { de: 'Eine Retrospektive für ein Team nach einem Projektabschnitt.', en: 'A retrospective for a team after a stretch of work.' }, '14:00', language, (b) => [
        b.block({ de: 'Ankommen und Ziel', en: 'Check-in and purpose' }, 10, 'input', { description: { de: 'Wofür nehmen wir uns diese Zeit? Eine kurze Runde: ein Wort zur letzten Zeit.', en: 'What is this time for? A quick round: one word about the last weeks.' } }),
        b.method('what-so-what-now-what', { duration: 45 }),
        b.method('15-percent-solutions'),
        b.block({ de: 'Vereinbarungen festhalten', en: 'Record the agreements' }, 10, 'input', { material: { de: 'Fotoprotokoll', en: 'Photo record' } }),
        b.block({ de: 'Abschluss', en: 'Check-out' }, 5, 'interaction'),
      ]);
    },
  },
  {
    key: 'kick-off',
    title: { de: 'Projekt-Kick-off (halber Tag)', en: 'Project kick-off (half a day)' },
    summary: { de: 'Ein neues Team lernt sich kennen, klärt Zweck und Spielregeln und plant die ersten Schritte.', en: 'A new team gets to know each other, clarifies purpose and ground rules, and plans its first steps.' },
    document(language) {
      return documentOf(this.title, { de: 'Auftakt eines Projekts mit allen Beteiligten.', en: 'The start of a project with everyone involved.' }, '09:00', language, (b) => [
        b.block({ de: 'Begrüßung und Ablauf', en: 'Welcome and agenda' }, 15, 'input'),
        b.method('impromptu-networking'),
        b.block({ de: 'Ausgangslage und Auftrag', en: 'Background and mandate' }, 20, 'input', { material: { de: 'Präsentation', en: 'Slides' } }),
        b.method('nine-whys'),
        b.block(BREAK, 15, 'break'),
        b.method('min-specs'),
        b.method('triz'),
        b.method('15-percent-solutions'),
        b.block({ de: 'Nächste Schritte und Abschluss', en: 'Next steps and closing' }, 15, 'input'),
      ]);
    },
  },
  {
    key: 'strategy-day',
    title: { de: 'Strategietag (ganzer Tag)', en: 'Strategy day (a full day)' },
    summary: { de: 'Lage verstehen, Spannungen benennen, Optionen in Gruppen ausarbeiten und auswählen.', en: 'Understand the situation, name the tensions, develop options in groups and choose.' },
    document(language) {
      return documentOf(this.title, { de: 'Ein Tag für die Strategie eines Bereichs oder einer Organisation.', en: 'A day on the strategy of a unit or an organisation.' }, '09:00', language, (b) => [
        b.block({ de: 'Begrüßung und Ziel des Tages', en: 'Welcome and purpose of the day' }, 15, 'input'),
        b.method('appreciative-interviews'),
        b.group({ de: 'Lage und Spannungen', en: 'Situation and tensions' }, [
          b.block({ de: 'Zahlen und Trends', en: 'Figures and trends' }, 30, 'input', { material: { de: 'Präsentation', en: 'Slides' } }),
          b.method('wicked-questions'),
        ]),
        b.block(BREAK, 15, 'break'),
        b.breakout({ de: 'Optionen ausarbeiten', en: 'Develop options' }, 60, [
          b.block({ de: 'Option A: Wachstum', en: 'Option A: growth' }, 60, 'interaction', { lane: 0 }),
          b.block({ de: 'Option B: Fokus', en: 'Option B: focus' }, 60, 'interaction', { lane: 1 }),
          b.block({ de: 'Option C: Partnerschaften', en: 'Option C: partnerships' }, 60, 'interaction', { lane: 2 }),
        ]),
        b.block(LUNCH, 60, 'break', { fixed: '12:30' }),
        b.method('25-10-crowd-sourcing'),
        b.method('troika-consulting'),
        b.block(BREAK, 15, 'break'),
        b.block({ de: 'Entscheidungen und Verantwortliche', en: 'Decisions and owners' }, 45, 'input'),
        b.block({ de: 'Abschlussrunde', en: 'Closing round' }, 15, 'interaction'),
      ]);
    },
  },
  {
    key: 'design-sprint-day',
    title: { de: 'Design-Sprint-Tag: Verstehen und Skizzieren', en: 'Design sprint day: understand and sketch' },
    summary: { de: 'Ein Sprint-Tag vom Problem über Expertengespräche bis zu ersten Skizzen.', en: 'One sprint day from the problem through expert talks to first sketches.' },
    document(language) {
      return documentOf(this.title, { de: 'Der erste Tag eines Design Sprints mit einem Entscheidungsteam.', en: 'The first day of a design sprint with a deciding team.' }, '09:30', language, (b) => [
        b.block({ de: 'Langfristiges Ziel und Sprint-Fragen', en: 'Long-term goal and sprint questions' }, 45, 'input'),
        b.block({ de: 'Karte der Nutzerreise', en: 'Map of the user journey' }, 60, 'interaction', { material: { de: 'Whiteboard, Klebezettel', en: 'Whiteboard, sticky notes' } }),
        b.block(BREAK, 15, 'break'),
        b.block({ de: 'Expertengespräche und „Wie könnten wir …?“-Notizen', en: 'Expert interviews and “How might we …?” notes' }, 75, 'interaction'),
        b.block(LUNCH, 60, 'break', { fixed: '12:45' }),
        b.method('drawing-together'),
        b.block({ de: 'Lösungsskizzen in vier Schritten', en: 'Four-step solution sketches' }, 90, 'interaction', { material: { de: 'Papier, Klemmbretter, Marker', en: 'Paper, clipboards, markers' } }),
        b.method('1-2-4-all'),
        b.block({ de: 'Ausblick auf morgen', en: 'Looking ahead to tomorrow' }, 10, 'input'),
      ]);
    },
  },
];
