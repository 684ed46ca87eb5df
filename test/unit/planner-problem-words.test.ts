// The editor words every problem a plan's checks can find in both languages, and every problem carries what it is.
import { describe, expect, it } from 'vitest';
import { PROBLEM_RULE_KINDS, SessionError, type Problem, type ProblemRule } from '../../src/session/errors.js';
import { validateForCreate } from '../../src/session/validate.js';
import { problemPhrase, wordingOf } from '../../src/planner/i18n/problems.js';
import { workshopPlan } from '../support/viewer-plans.js';

const number = (value: number): string => String(value);

/** The problems create finds in a document (none when it is valid). */
function problemsOf(document: unknown): readonly Problem[] {
  try {
    validateForCreate(document);
    return [];
  } catch (error) {
    if (error instanceof SessionError) return error.problems;
    throw error;
  }
}

describe('problem words', () => {
  it('every rule has words in German and English, different from each other and from the API\'s sentence', () => {
    for (const kind of PROBLEM_RULE_KINDS) {
      const rule = { kind, expected: 'int', minimum: 1, maximum: 3, format: 'date', lanes: 2, count: 4 } as unknown as ProblemRule;
      const de = problemPhrase({ message: 'API', rule }, 'title', 'de', number);
      const en = problemPhrase({ message: 'API', rule }, 'title', 'en', number);
      expect(typeof wordingOf('de')[kind], kind).toBe('function');
      expect(typeof wordingOf('en')[kind], kind).toBe('function');
      expect(de, kind).not.toBe('API');
      expect(en, kind).not.toBe('API');
      expect(de, kind).not.toBe(en);
    }
    expect(Object.keys(wordingOf('de')).sort()).toEqual([...PROBLEM_RULE_KINDS].sort());
    expect(Object.keys(wordingOf('en')).sort()).toEqual([...PROBLEM_RULE_KINDS].sort());
  });

  it('every problem create finds carries its rule, and the page counts breakouts from 1', () => {
    const plan = workshopPlan() as Record<string, any>;
    const broken = structuredClone(plan);
    broken.workshop.date = '2027-02-30';
    broken.workshop.startTime = '25:00';
    broken.workshop.title = '';
    broken.blockTypes[0].color = 'red';
    broken.items[0].duration = 2000;
    broken.items[1].duration = 12.5;
    broken.items[1].id = broken.items[0].id;
    broken.items[0].personIds = ['nobody'];
    broken.items[0].blockTypeId = 'gone';
    broken.items[0].extra = 1;
    broken.items[0].laneIndex = 1;
    broken.items[2].children[1].lanes = 1;
    broken.items[3].type = 'session';
    broken.persons[0].name = 'x'.repeat(500);
    const problems = [...problemsOf(broken), ...problemsOf({ ...plan, items: plan.items.map((item: Record<string, unknown>) => ({ ...item, title: undefined })) })];
    expect(problems.length).toBeGreaterThan(5);
    for (const problem of problems) expect(problem.rule, `${problem.path}: ${problem.message}`).toBeDefined();

    const lanes = problemsOf({ ...plan, items: [{ ...plan.items[2], children: [plan.items[2].children[0], { ...plan.items[2].children[1], lanes: 1 }] }] });
    const beyond = lanes.find((problem) => problem.rule?.kind === 'laneBeyondBreakout');
    expect(beyond, JSON.stringify(lanes)).toBeDefined();
    expect(problemPhrase(beyond!, 'laneIndex', 'de', number)).toBe('dieser Breakout hat nur 1 parallelen Breakout: wählen Sie Breakout 1');
    const tooLong = problemsOf({ ...plan, items: [{ ...plan.items[0], duration: 2000 }] })[0]!;
    expect(problemPhrase(tooLong, 'duration', 'de', (value) => value.toLocaleString('de-DE'))).toBe('höchstens 1.440 Minuten');
    expect(problemPhrase(tooLong, 'duration', 'en', (value) => value.toLocaleString('en-GB'))).toBe('at most 1,440 minutes');
  });
});
