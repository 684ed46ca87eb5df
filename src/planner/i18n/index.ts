// The planner's string tables by language.
import { de } from './de.js';
import { en } from './en.js';
import type { PlannerLanguage, PlannerStrings } from './strings.js';

export type { PlannerLanguage, PlannerStrings } from './strings.js';

const TABLES: Record<PlannerLanguage, PlannerStrings> = { de, en };

export function plannerStrings(language: PlannerLanguage): PlannerStrings {
  return TABLES[language];
}
