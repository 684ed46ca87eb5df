// The editor's words for every problem a plan's checks can find (session/errors.ts ProblemRule), one table per language.
import type { ProblemRule, ProblemRuleKind } from '../../session/errors.js';
import type { PlannerLanguage } from './strings.js';

/** A rule's figures, and whether the field counts minutes (durations say their unit). */
type Wording = { [K in ProblemRuleKind]: (rule: Extract<ProblemRule, { kind: K }>, minutes: boolean, number: (value: number) => string) => string };

const TYPE_EN: Record<string, string> = { int: 'a whole number', number: 'a number', string: 'text', boolean: 'on or off' };
const TYPE_DE: Record<string, string> = { int: 'eine ganze Zahl', number: 'eine Zahl', string: 'Text', boolean: 'an oder aus' };

const en: Wording = {
  missing: () => 'is required',
  wrongType: (rule) => (TYPE_EN[rule.expected] ? `must be ${TYPE_EN[rule.expected]}` : 'has the wrong form'),
  empty: () => 'must not be empty',
  tooFewCharacters: (rule, _, n) => `needs at least ${n(rule.minimum)} characters`,
  tooManyCharacters: (rule, _, n) => `at most ${n(rule.maximum)} characters`,
  tooFewEntries: (rule, _, n) => `needs at least ${n(rule.minimum)} entries`,
  tooManyEntries: (rule, _, n) => `at most ${n(rule.maximum)} entries`,
  belowMinimum: (rule, minutes, n) => `at least ${n(rule.minimum)}${minutes ? ' minutes' : ''}`,
  aboveMaximum: (rule, minutes, n) => `at most ${n(rule.maximum)}${minutes ? ' minutes' : ''}`,
  notAllowed: () => 'this value is not possible here',
  wrongItemKind: () => 'this kind of item cannot be placed here',
  format: (rule) => ({ date: 'must be a complete, real date', time: 'must be a time of day such as 09:30', color: 'must be a colour such as #3366cc', id: 'must not contain control characters' })[rule.format],
  unknownField: () => 'is not a field of a plan; remove it',
  reservedKey: () => 'is a name that cannot be stored; remove it',
  duplicateId: () => 'this ID is already used by another entry',
  undeclaredCategory: () => 'this category is not in the list of categories',
  undeclaredPerson: () => 'this person is not in the list of people',
  laneOutsideBreakout: () => 'only items inside a breakout run in one of its breakouts',
  laneInSameProgramme: () => 'the breakout runs the same programme in all its breakouts, so its items belong to Breakout 1',
  laneBeyondBreakout: (rule) => (rule.lanes <= 1 ? 'this breakout has only 1 parallel breakout: choose Breakout 1' : `this breakout has only ${rule.lanes} parallel breakouts: choose Breakout 1 to ${rule.lanes}`),
  planTooLarge: () => 'the plan is too large for a link; make it smaller',
  brokenCharacters: () => 'the plan holds too many broken characters (halves of emoji)',
  notJson: () => 'this is not a plan file (not valid JSON)',
  moreProblems: (rule, _, n) => `and ${n(rule.count)} more problems`,
};

const de: Wording = {
  missing: () => 'fehlt',
  wrongType: (rule) => (TYPE_DE[rule.expected] ? `muss ${TYPE_DE[rule.expected]} sein` : 'hat die falsche Form'),
  empty: () => 'darf nicht leer sein',
  tooFewCharacters: (rule, _, n) => `mindestens ${n(rule.minimum)} Zeichen`,
  tooManyCharacters: (rule, _, n) => `höchstens ${n(rule.maximum)} Zeichen`,
  tooFewEntries: (rule, _, n) => `mindestens ${n(rule.minimum)} Einträge`,
  tooManyEntries: (rule, _, n) => `höchstens ${n(rule.maximum)} Einträge`,
  belowMinimum: (rule, minutes, n) => `mindestens ${n(rule.minimum)}${minutes ? ' Minuten' : ''}`,
  aboveMaximum: (rule, minutes, n) => `höchstens ${n(rule.maximum)}${minutes ? ' Minuten' : ''}`,
  notAllowed: () => 'dieser Wert ist hier nicht möglich',
  wrongItemKind: () => 'diese Art von Punkt kann hier nicht stehen',
  format: (rule) => ({ date: 'muss ein vollständiges, echtes Datum sein', time: 'muss eine Uhrzeit wie 09:30 sein', color: 'muss eine Farbe wie #3366cc sein', id: 'darf keine Steuerzeichen enthalten' })[rule.format],
  unknownField: () => 'ist kein Feld eines Plans; entfernen Sie es',
  reservedKey: () => 'ist ein Name, der sich nicht speichern lässt; entfernen Sie ihn',
  duplicateId: () => 'diese ID verwendet schon ein anderer Eintrag',
  undeclaredCategory: () => 'diese Kategorie steht nicht in der Liste der Kategorien',
  undeclaredPerson: () => 'diese Person steht nicht in der Liste der Personen',
  laneOutsideBreakout: () => 'nur Punkte in einem Breakout laufen in einem seiner Breakouts',
  laneInSameProgramme: () => 'der Breakout hat in allen Breakouts das gleiche Programm, seine Punkte gehören deshalb zu Breakout 1',
  laneBeyondBreakout: (rule) => (rule.lanes <= 1 ? 'dieser Breakout hat nur 1 parallelen Breakout: wählen Sie Breakout 1' : `dieser Breakout hat nur ${rule.lanes} parallele Breakouts: wählen Sie Breakout 1 bis ${rule.lanes}`),
  planTooLarge: () => 'der Plan ist zu groß für einen Link; machen Sie ihn kleiner',
  brokenCharacters: () => 'der Plan enthält zu viele kaputte Zeichen (halbe Emoji)',
  notJson: () => 'das ist keine Plan-Datei (kein gültiges JSON)',
  moreProblems: (rule, _, n) => `und ${n(rule.count)} weitere Probleme`,
};

const WORDINGS: Record<PlannerLanguage, Wording> = { en, de };

/** Every kind's wording in a language, for the test that each rule has words in each language. */
export function wordingOf(language: PlannerLanguage): Readonly<Record<ProblemRuleKind, unknown>> {
  return WORDINGS[language];
}

/**
 * A problem in the editor's language: its rule's words, or the session code's own sentence for a problem without one
 * (none is expected). `field` is the key the problem's path ends in.
 */
export function problemPhrase(problem: { readonly message: string; readonly rule?: ProblemRule }, field: string | undefined, language: PlannerLanguage, number: (value: number) => string): string {
  const rule = problem.rule;
  if (rule === undefined) return problem.message;
  const word = WORDINGS[language][rule.kind] as (rule: ProblemRule, minutes: boolean, number: (value: number) => string) => string;
  return word(rule, field === 'duration', number);
}
