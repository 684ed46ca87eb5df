// Methods to insert as a block: Liberating Structures, summarised in our own words, in German and English.
//
// Adapted from Liberating Structures (www.liberatingstructures.com) by Henri Lipmanowicz and Keith McCandless,
// licensed under CC BY-SA 4.0; these summaries are under the same licence (docs/viewer.md, "Plans to start from").

/** The languages of the page and of the library. */
export type Language = 'de' | 'en';

/** A text in both languages of the page. */
export type Bilingual = Readonly<Record<Language, string>>;

export interface Method {
  /** Stable key (used in templates and the insert list). */
  readonly key: string;
  readonly title: Bilingual;
  /** Minutes, as the method is usually run with a group of up to 30. */
  readonly duration: number;
  /** What happens, step by step, and what it is good for. */
  readonly description: Bilingual;
  readonly material: Bilingual;
}

/** Where a method comes from, said wherever one is used (the block's description ends with it). */
export const METHOD_SOURCE: Bilingual = {
  de: 'Nach Liberating Structures (liberatingstructures.com) von Henri Lipmanowicz und Keith McCandless, CC BY-SA 4.0.',
  en: 'After Liberating Structures (liberatingstructures.com) by Henri Lipmanowicz and Keith McCandless, CC BY-SA 4.0.',
};

export const LICENSE_URL = 'https://creativecommons.org/licenses/by-sa/4.0/';

export const METHODS: readonly Method[] = [
  {
    key: 'impromptu-networking',
    title: { de: 'Impromptu Networking', en: 'Impromptu Networking' },
    duration: 20,
    description: {
      de: 'Drei Runden zu zweit, je 4–5 Minuten, immer mit einer neuen Person: Was erhoffst du dir heute? Was kannst du beitragen? Danach kurz sammeln, was aufgefallen ist. Gut zum Ankommen und um Erwartungen sichtbar zu machen.',
      en: 'Three rounds in pairs, 4–5 minutes each, always with someone new: what do you hope for today, and what can you bring? Then gather briefly what stood out. Good for arriving and for making expectations visible.',
    },
    material: { de: 'Zwei Leitfragen gut sichtbar', en: 'Two guiding questions, clearly visible' },
  },
  {
    key: '1-2-4-all',
    title: { de: '1-2-4-Alle', en: '1-2-4-All' },
    duration: 12,
    description: {
      de: 'Eine Frage für alle: 1 Minute allein nachdenken, 2 Minuten zu zweit, 4 Minuten zu viert, dann 5 Minuten im Plenum die stärksten Gedanken teilen. Jede Stimme zählt, die besten Ideen setzen sich durch.',
      en: 'One question for everyone: 1 minute alone, 2 minutes in pairs, 4 minutes in fours, then 5 minutes with the whole group sharing the strongest ideas. Every voice counts and the best ideas rise.',
    },
    material: { de: 'Papier und Stifte', en: 'Paper and pens' },
  },
  {
    key: '25-10-crowd-sourcing',
    title: { de: '25/10 Crowd Sourcing', en: '25/10 Crowd Sourcing' },
    duration: 30,
    description: {
      de: 'Alle schreiben eine kühne Idee und den ersten Schritt auf eine Karte. Die Karten wandern von Hand zu Hand; wer eine Karte hält, gibt 1–5 Punkte. Nach fünf Runden werden die Punkte addiert und die zehn besten Ideen vorgestellt.',
      en: 'Everyone writes a bold idea and its first step on a card. Cards move from hand to hand; whoever holds one scores it 1–5. After five rounds the scores are added up and the top ten ideas are presented.',
    },
    material: { de: 'Karteikarten, Stifte', en: 'Index cards, pens' },
  },
  {
    key: 'triz',
    title: { de: 'TRIZ', en: 'TRIZ' },
    duration: 35,
    description: {
      de: 'In kleinen Gruppen sammeln: Wie erreichen wir sicher das schlechteste Ergebnis? Dann ehrlich prüfen, was davon wir heute schon tun, und für jedes Muster einen ersten Schritt festlegen, es zu lassen.',
      en: 'In small groups, list how to make sure the worst possible outcome happens. Then check honestly which of those things we already do, and agree on a first step to stop each one.',
    },
    material: { de: 'Flipchart oder Karten', en: 'Flip chart or cards' },
  },
  {
    key: 'troika-consulting',
    title: { de: 'Troika-Beratung', en: 'Troika Consulting' },
    duration: 30,
    description: {
      de: 'Zu dritt: eine Person schildert ihr Anliegen (2 Minuten), die beiden anderen fragen nach. Dann dreht sie sich um und hört zu, wie die zwei beraten (5 Minuten). Zum Schluss sagt sie, was sie mitnimmt. Drei Runden, jede Person einmal.',
      en: 'In threes: one person describes a challenge (2 minutes) and the others ask questions. Then the client turns away and listens while the two consult (5 minutes), and says at the end what was useful. Three rounds, everyone once.',
    },
    material: { de: 'Stühle in Dreiergruppen', en: 'Chairs in groups of three' },
  },
  {
    key: '15-percent-solutions',
    title: { de: '15-%-Lösungen', en: '15% Solutions' },
    duration: 20,
    description: {
      de: 'Jede Person überlegt allein: Was kann ich ohne Erlaubnis und ohne zusätzliche Mittel sofort tun? Dann zu zweit oder zu dritt teilen und gegenseitig schärfen. Macht Handlungsspielraum sichtbar.',
      en: 'Each person first thinks alone: what can I do right away, without permission or extra resources? Then share in pairs or threes and sharpen each other’s steps. Shows the room for action everyone already has.',
    },
    material: { de: 'Notizzettel', en: 'Sticky notes' },
  },
  {
    key: 'what-so-what-now-what',
    title: { de: 'Was? Na und? Was jetzt?', en: 'What, So What, Now What?' },
    duration: 45,
    description: {
      de: 'Gemeinsam auf eine Erfahrung zurückblicken, in drei Schritten: Was ist passiert (Fakten)? Na und – was bedeutet es, welche Muster sehen wir? Was jetzt – was tun wir als Nächstes? Jeder Schritt mit 1-2-4-Alle.',
      en: 'Look back at a shared experience in three steps: What happened (facts)? So what — what does it mean, which patterns do we see? Now what — what do we do next? Each step with 1-2-4-All.',
    },
    material: { de: 'Drei Flipcharts', en: 'Three flip charts' },
  },
  {
    key: 'min-specs',
    title: { de: 'Min Specs', en: 'Min Specs' },
    duration: 35,
    description: {
      de: 'Alle Regeln und Vorgaben für ein Vorhaben sammeln, dann eine nach der anderen streichen: Erreichen wir unser Ziel auch ohne sie? Übrig bleibt die kleine Liste, die wirklich gilt.',
      en: 'List every rule and requirement for an undertaking, then strike them one by one: could we still reach our purpose without it? What remains is the short list that really matters.',
    },
    material: { de: 'Flipchart, Marker', en: 'Flip chart, markers' },
  },
  {
    key: 'conversation-cafe',
    title: { de: 'Gesprächscafé', en: 'Conversation Café' },
    duration: 35,
    description: {
      de: 'In Tischgruppen mit Redegegenstand: zwei Runden, in denen alle der Reihe nach ohne Unterbrechung sprechen, dann freies Gespräch, zum Schluss eine Runde: Was nehme ich mit? Gut für schwierige oder emotionale Themen.',
      en: 'Table groups with a talking object: two rounds in which everyone speaks in turn without interruption, then open conversation, and a last round on what each person takes away. Good for hard or emotional topics.',
    },
    material: { de: 'Ein Redegegenstand pro Tisch', en: 'A talking object per table' },
  },
  {
    key: 'appreciative-interviews',
    title: { de: 'Wertschätzende Interviews', en: 'Appreciative Interviews' },
    duration: 60,
    description: {
      de: 'Zu zweit interviewen sich alle gegenseitig zu einer Erfahrung, in der etwas richtig gut gelungen ist, und was es möglich gemacht hat. In Vierergruppen die Geschichten teilen und Muster des Gelingens sammeln.',
      en: 'In pairs, people interview each other about a time something went really well, and what made it possible. Groups of four share the stories and collect the patterns of success.',
    },
    material: { de: 'Interviewfragen auf Karten', en: 'Interview questions on cards' },
  },
  {
    key: 'nine-whys',
    title: { de: 'Neun Warums', en: 'Nine Whys' },
    duration: 20,
    description: {
      de: 'Zu zweit fragt eine Person die andere immer wieder: Warum ist das wichtig für dich? So lange, bis der eigentliche Zweck klar wird. Dann Rollen tauschen und im Plenum gemeinsame Zwecke sammeln.',
      en: 'In pairs, one person keeps asking the other: why is that important to you? Until the underlying purpose becomes clear. Then switch roles and gather shared purposes with the whole group.',
    },
    material: { de: 'Papier und Stifte', en: 'Paper and pens' },
  },
  {
    key: 'wicked-questions',
    title: { de: 'Knifflige Fragen', en: 'Wicked Questions' },
    duration: 25,
    description: {
      de: 'Gegensätze sichtbar machen, die beide wahr sind: „Wie können wir … und gleichzeitig …?“ Zu zweit formulieren, im Plenum die stärksten Fragen auswählen. Hilft, Spannungen als Teil der Strategie zu sehen.',
      en: 'Make opposites visible that are both true: “How is it that we … and at the same time …?” Write them in pairs and pick the strongest with the whole group. Helps to treat tensions as part of the strategy.',
    },
    material: { de: 'Flipchart', en: 'Flip chart' },
  },
  {
    key: 'drawing-together',
    title: { de: 'Gemeinsam zeichnen', en: 'Drawing Together' },
    duration: 40,
    description: {
      de: 'Eine Frage nur mit fünf einfachen Symbolen beantworten (Kreis, Linie, Dreieck, Spirale, Strichmännchen): erst allein zeichnen, dann im Kreis zeigen und gemeinsam deuten. Öffnet neue Blickwinkel jenseits von Worten.',
      en: 'Answer a question using only five simple symbols (circle, line, triangle, spiral, stick figure): draw alone first, then show the drawings in a circle and make sense of them together. Opens views beyond words.',
    },
    material: { de: 'Papier, dicke Stifte', en: 'Paper, thick pens' },
  },
];

/** A method's block description: what it is, then where it comes from (the licence asks for the attribution). */
export function methodDescription(method: Pick<Method, 'description'>, source: Bilingual, language: Language): string {
  return `${method.description[language]}\n\n${source[language]}`;
}

/** The method with this key (templates name their methods by key). */
export function methodByKey(key: string): Method {
  const method = METHODS.find((entry) => entry.key === key);
  if (method === undefined) throw new Error(`no method ${key} in the library`);
  return method;
}
