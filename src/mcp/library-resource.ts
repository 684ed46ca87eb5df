// The resource sessionplan://templates: the plans to start from and the methods, as JSON a chat can build a plan from.
import { libraryCatalogue } from '../library/catalogue.js';
import { TEMPLATES_URI } from './prompts.js';

export const TEMPLATES_RESOURCE = {
  uri: TEMPLATES_URI,
  name: 'templates',
  title: 'Plans to start from',
  description: 'Four whole workshop plans (retrospective, kick-off, strategy day, design sprint day) as complete session documents in German and English, and facilitation methods (Liberating Structures, CC BY-SA 4.0) with durations.',
  mimeType: 'application/json',
} as const;

/** The resource's text: each template with its document in both languages, each method, and their source and licence. */
export function libraryJson(): string {
  return JSON.stringify({
    ...libraryCatalogue(),
    usage: 'Pass a template document, adapted, to create_session_link as its session; insert a method as a block with its duration, its description and the source sentence.',
  });
}
