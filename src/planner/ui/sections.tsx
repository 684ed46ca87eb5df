// The editor's sections above the agenda: the workshop, its categories (block types) and its people. Each renders again only
// when its props change (memo.ts): a keystroke in an item's field leaves them as they are.
import { isFacilitatorOnly, withFacilitatorMark } from '../../plan-view/handout.js';
import { formatMinutes } from '../../plan-view/schedule.js';
import { fieldPath, type Draft } from '../tree.js';
import { useEditor } from './context.js';
import { ClockField, ColorField, fieldId, TextField } from './fields.js';
import { memo } from './memo.js';

type Problems = ReadonlyMap<string, readonly string[]>;

export const WorkshopSection = memo(function WorkshopSection(props: {
  readonly workshop: Draft['workshop'];
  readonly problems: Problems;
  readonly total: number;
  readonly origin: number;
  readonly end: number;
  readonly relative: boolean;
}) {
  const { strings, formats } = useEditor();
  const { workshop, problems } = props;
  const problem = (field: string) => problems.get(`workshop.${field}`);
  const times = { total: props.total, end: props.end, clock: { origin: props.origin, relative: props.relative } };
  const total = formats.duration(times.total);
  const range = `${formatMinutes(times.clock.origin, times.clock.relative)}–${formatMinutes(times.end, times.clock.relative)}`;
  return (
    <section class="edit-section" aria-labelledby="edit-workshop">
      <h2 id="edit-workshop">{strings.workshopSection}</h2>
      <div class="edit-fields">
        <TextField path={['workshop', 'title']} label={strings.workshopTitle} value={workshop.title} problems={problem('title')} control="workshop-title" className="field--wide" />
        <ClockField path={['workshop', 'date']} label={strings.date} type="date" value={workshop.date} problems={problem('date')} />
        <ClockField path={['workshop', 'startTime']} label={strings.startTime} type="time" value={workshop.startTime} problems={problem('startTime')} />
        <TextField path={['workshop', 'description']} label={strings.workshopDescription} value={workshop.description} problems={problem('description')} multiline className="field--wide" />
      </div>
      <p class="edit-total" data-total-minutes={times.total}>
        {times.clock.relative ? strings.totalOnly(total) : strings.totalAgainstDay(total, range)}
      </p>
    </section>
  );
});

/** Adds an entry to a list and moves focus into its first field, its text selected: typing names the new entry. */
function useAddEntry(): (list: 'blockTypes' | 'persons', field: string) => void {
  const editor = useEditor();
  return (list, field) => {
    const result = editor.planner.apply({ kind: 'addEntry', list });
    const index = result.draft[list].length - 1;
    if (index >= 0) editor.focus.value = { field: fieldId([list, index, field]), select: true };
  };
}

export const CategoriesSection = memo(function CategoriesSection(props: { readonly blockTypes: Draft['blockTypes']; readonly problems: Problems }) {
  const { strings, planner, setField } = useEditor();
  const addEntry = useAddEntry();
  const draft = { blockTypes: props.blockTypes };
  const problemsByPath = props.problems;
  return (
    <section class="edit-section" aria-labelledby="edit-categories">
      <h2 id="edit-categories">{strings.categoriesSection}</h2>
      <ul class="edit-entries">
        {draft.blockTypes.map((type, index) => {
          const path = (field: string) => ['blockTypes', index, field];
          const problem = (field: string) => problemsByPath.get(fieldPath(path(field)));
          const name = type.name || type.id;
          return (
            <li key={`${type.id}#${index}`} class="edit-entry">
              <span class="swatch" style={{ backgroundColor: type.color }} aria-hidden="true" />
              {problem('id') && <TextField path={path('id')} label={strings.itemId} value={type.id} problems={problem('id')} />}
              <TextField path={path('name')} label={strings.categoryName} value={type.name} problems={problem('name')} />
              <ColorField path={path('color')} label={strings.categoryColor} value={type.color} problems={problem('color')} />
              {/* The mark is the name's 🔒 (handout.ts), so a link keeps it without a field the format lacks. */}
              <div class="field field--check">
                <input
                  id={fieldId(path('facilitator-only'))}
                  type="checkbox"
                  checked={isFacilitatorOnly(type)}
                  onChange={(event) => setField(path('name'), withFacilitatorMark(type.name, event.currentTarget.checked))}
                />
                <label for={fieldId(path('facilitator-only'))}>{strings.facilitatorOnly}</label>
              </div>
              <button type="button" class="danger" onClick={() => planner.apply({ kind: 'removeEntry', list: 'blockTypes', index })}>
                {strings.removeCategory(name)}
              </button>
            </li>
          );
        })}
      </ul>
      <button type="button" onClick={() => addEntry('blockTypes', 'name')}>
        {strings.addCategory}
      </button>
    </section>
  );
});

export const PeopleSection = memo(function PeopleSection(props: { readonly persons: Draft['persons']; readonly problems: Problems }) {
  const { strings, planner } = useEditor();
  const addEntry = useAddEntry();
  const draft = { persons: props.persons };
  const problemsByPath = props.problems;
  return (
    <section class="edit-section" aria-labelledby="edit-people">
      <h2 id="edit-people">{strings.peopleSection}</h2>
      <ul class="edit-entries">
        {draft.persons.map((person, index) => {
          const path = (field: string) => ['persons', index, field];
          const problem = (field: string) => problemsByPath.get(fieldPath(path(field)));
          const name = person.name || person.id;
          return (
            <li key={`${person.id}#${index}`} class="edit-entry">
              {problem('id') && <TextField path={path('id')} label={strings.itemId} value={person.id} problems={problem('id')} />}
              <TextField path={path('name')} label={strings.personName} value={person.name} problems={problem('name')} />
              <TextField path={path('role')} label={strings.personRole} value={person.role} problems={problem('role')} />
              <button type="button" class="danger" onClick={() => planner.apply({ kind: 'removeEntry', list: 'persons', index })}>
                {strings.removePerson(name)}
              </button>
            </li>
          );
        })}
      </ul>
      <button type="button" onClick={() => addEntry('persons', 'name')}>
        {strings.addPerson}
      </button>
    </section>
  );
});
