/// <reference lib="dom" />
import type { FieldToRender } from '@learnables/protocol';
import { fieldsToRender, prefillFields } from '@learnables/protocol';
import type { LearnableView, TeachBlockView } from '../../api-types.ts';
import { h, uniqueId } from '../dom.ts';

/** The lesson part of a form, drawn blind from the card and prefilled from the teach block. */
export interface LessonFields {
  readonly element: HTMLElement;
  /** Each field's value by field name, exactly as typed. */
  values(): Record<string, string>;
  reason(): string;
  /** Show a refusal next to the field it names; false when it names none of them (show it at the top). */
  showError(field: string | undefined, message: string): boolean;
  clearErrors(): void;
  /** Ask for the reason only while a lesson is wanted. */
  setRequired(required: boolean): void;
  /** Show the card's fields (a kept draft that changed them, or "Change it…"). */
  reveal(): void;
  /** Whether a field holds anything but what the agent suggested. */
  changed(): boolean;
}

const KNOWN_KINDS = new Set(['text', 'choice']);

interface DrawnField {
  readonly control: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
  readonly error: HTMLElement;
}

function drawnError(id: string): HTMLElement {
  return h('p', { class: 'field-error', id, hidden: true });
}

function drawField(field: FieldToRender, value: string): { element: HTMLElement; drawn: DrawnField } {
  const id = uniqueId('lesson-field');
  const helpId = `${id}-help`;
  const errorId = `${id}-error`;
  const describedBy = [field.help !== undefined && helpId, errorId].filter(Boolean).join(' ');
  const control =
    field.control === 'select'
      ? h(
          'select',
          { id, name: field.name, 'aria-describedby': describedBy },
          (field.choices ?? []).map((choice) => h('option', { value: choice, selected: choice === value }, choice)),
        )
      : h('input', { id, name: field.name, type: 'text', value, autocomplete: 'off', spellcheck: false, 'aria-describedby': describedBy });
  // The client rule: a kind the console does not know is still drawn, as text, and says so.
  const unknownKind = !KNOWN_KINDS.has(field.declaredKind) && h('span', { class: 'kind-hint' }, ` (${field.declaredKind}, typed as text)`);
  const error = drawnError(errorId);
  const element = h(
    'div',
    { class: 'field' },
    h('label', { for: id }, field.label, unknownKind),
    control,
    field.help !== undefined && h('p', { class: 'help', id: helpId }, field.help),
    error,
  );
  return { element, drawn: { control, error } };
}

/**
 * The suggestion in the learnable's words (SPEC §3.6) while the fields are folded away: "The lesson:
 * mail from billing@origin.example", the exact value one click away, and "Change it…" to unfold the
 * card's fields. The console reads no named key of the value: the exact value is each field's label
 * and its prefilled text, drawn from the card as the fields are.
 */
function wordsView(
  says: string,
  fields: readonly FieldToRender[],
  prefilled: Record<string, string>,
  onChange: () => void,
): { element: HTMLElement; unfold(): void } {
  const lead = h('p', { class: 'lesson-says' }, h('strong', {}, 'The lesson: '), says);
  const exact = h(
    'details',
    { class: 'lesson-exact' },
    h('summary', {}, 'The exact value'),
    h(
      'dl',
      { class: 'summary' },
      fields.map((field) => [h('dt', {}, field.label), h('dd', { class: 'wrap-anywhere' }, h('code', {}, prefilled[field.name] ?? ''))]),
    ),
  );
  const change = h('button', { type: 'button', class: 'secondary change-lesson', 'aria-expanded': 'false' }, 'Change it…');
  const element = h('div', { class: 'lesson-words' }, lead, exact, h('p', {}, change));
  const unfold = () => {
    // Once the fields are open, the words describe the suggestion, not what the fields now hold:
    // the preview gives the words of the changed lesson.
    lead.replaceChildren(h('strong', {}, 'Suggested: '), says);
    exact.hidden = true;
    change.hidden = true;
    change.setAttribute('aria-expanded', 'true');
  };
  change.addEventListener('click', onChange);
  return { element, unfold };
}

export function lessonFields(learnable: LearnableView, teach: TeachBlockView): LessonFields {
  const fields = fieldsToRender(learnable.lessonFields);
  const prefilled = prefillFields(fields, teach.suggested);
  const drawn = new Map<string, DrawnField>();
  const elements = fields.map((field) => {
    const { element, drawn: parts } = drawField(field, prefilled[field.name] ?? '');
    drawn.set(field.name, parts);
    return element;
  });
  // With the learnable's words, the fields start folded; without, they show as they always did.
  const fieldBox = h('div', { class: 'lesson-field-list', hidden: teach.says !== undefined }, elements);
  const reveal = () => {
    if (!fieldBox.hidden) return;
    fieldBox.hidden = false;
    words?.unfold();
  };
  const words =
    teach.says !== undefined
      ? wordsView(teach.says, fields, prefilled, () => {
          reveal();
          [...drawn.values()][0]?.control.focus();
        })
      : undefined;

  const reasonId = uniqueId('lesson-reason');
  const reasonError = drawnError(`${reasonId}-error`);
  const reason = h('textarea', { id: reasonId, name: 'lesson-reason', rows: 2, 'aria-describedby': `${reasonId}-help ${reasonId}-error` });
  const reasonField = h(
    'div',
    { class: 'field' },
    h('label', { for: reasonId }, 'Why'),
    reason,
    h('p', { class: 'help', id: `${reasonId}-help` }, 'Kept in the history with your name, so the next person knows why this was taught.'),
    reasonError,
  );

  const showOn = (target: DrawnField, message: string) => {
    if (target.control !== reason) reveal();
    target.error.textContent = message;
    target.error.hidden = false;
    target.control.setAttribute('aria-invalid', 'true');
    target.control.focus();
  };

  return {
    element: h('div', { class: 'lesson-fields' }, words?.element, fieldBox, reasonField),
    values: () => Object.fromEntries([...drawn].map(([name, parts]) => [name, parts.control.value])),
    reason: () => reason.value,
    showError(field, message) {
      const target = field === undefined ? undefined : (drawn.get(field) ?? (field === 'reason' ? { control: reason, error: reasonError } : undefined));
      if (!target) return false;
      showOn(target, message);
      return true;
    },
    clearErrors() {
      for (const parts of [...drawn.values(), { control: reason, error: reasonError }]) {
        parts.error.hidden = true;
        parts.error.textContent = '';
        parts.control.removeAttribute('aria-invalid');
      }
    },
    setRequired(required) {
      reason.required = required;
    },
    reveal,
    changed: () => [...drawn].some(([name, parts]) => parts.control.value !== (prefilled[name] ?? '')),
  };
}
