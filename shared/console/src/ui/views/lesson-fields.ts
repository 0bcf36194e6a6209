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

export function lessonFields(learnable: LearnableView, teach: TeachBlockView): LessonFields {
  const fields = fieldsToRender(learnable.lessonFields);
  const prefilled = prefillFields(fields, teach.suggested);
  const drawn = new Map<string, DrawnField>();
  const elements = fields.map((field) => {
    const { element, drawn: parts } = drawField(field, prefilled[field.name] ?? '');
    drawn.set(field.name, parts);
    return element;
  });

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
    target.error.textContent = message;
    target.error.hidden = false;
    target.control.setAttribute('aria-invalid', 'true');
    target.control.focus();
  };

  return {
    element: h('div', { class: 'lesson-fields' }, elements, reasonField),
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
  };
}
