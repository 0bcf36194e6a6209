/// <reference lib="dom" />
import { ApiFailure } from '../api.ts';
import { fill, h, uniqueId } from '../dom.ts';
import { errorNotice } from './notices.ts';

export interface ReasonFormOptions {
  readonly className: string;
  /** The question the reason answers, e.g. "Why roll lists back to version 1?" */
  readonly label: string;
  /** What the clerk should know before confirming (who is recorded, what it does). */
  readonly help: string;
  readonly confirm: string;
  /** Shown above the question, e.g. what confirming would undo. */
  readonly before?: HTMLElement;
  /** Do it; a refusal is shown in its own words and the form stays. */
  send(reason: string): Promise<unknown>;
  close(): void;
}

/** A change to the history that needs a reason (rollback, take back): the reason, then confirm or cancel. */
export function reasonForm(options: ReasonFormOptions): HTMLElement {
  const id = uniqueId('reason');
  // Checked here, not by the browser: its bubble is worded by the browser and gone before it is read.
  const reason = h('textarea', { id, name: 'reason', rows: 2, 'aria-required': 'true', 'aria-describedby': `${id}-help` });
  const errors = h('div', { class: 'form-errors' });
  const confirm = h('button', { type: 'submit', class: 'danger' }, options.confirm);
  const form = h(
    'form',
    { class: options.className, novalidate: true },
    errors,
    options.before,
    h('label', { for: id }, options.label),
    reason,
    h('p', { class: 'help', id: `${id}-help` }, options.help),
    h('div', { class: 'actions' }, confirm, h('button', { type: 'button', class: 'secondary', onclick: options.close }, 'Cancel')),
  );
  closesOnEscape(form, options.close);
  // What confirming would do loads above the reason after the cursor is in it: keep the reason in view.
  if (options.before) {
    new MutationObserver(() => {
      if (document.activeElement === reason) reason.scrollIntoView({ block: 'nearest' });
    }).observe(options.before, { childList: true, subtree: true });
  }
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    errors.replaceChildren();
    reason.removeAttribute('aria-invalid');
    if (reason.value.trim() === '') {
      errors.replaceChildren(errorNotice('Say why, in a few words: it is kept with your name, so the next person can tell.'));
      reason.setAttribute('aria-invalid', 'true');
      reason.focus();
      return;
    }
    confirm.disabled = true;
    void options.send(reason.value).catch((error: unknown) => {
      confirm.disabled = false;
      errors.replaceChildren(errorNotice(error instanceof ApiFailure ? error.message : String(error)));
    });
  });
  return form;
}

/** Esc cancels a form that opened in place, as its Cancel button does (focus goes back to what opened it). */
export function closesOnEscape(form: HTMLElement, close: () => void): void {
  form.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || event.defaultPrevented) return;
    event.preventDefault();
    event.stopPropagation();
    close();
  });
}

/**
 * A table row's form, in a hidden row under it: `open` shows it and puts the cursor in it, closing
 * hides it and gives focus back to what opened it.
 */
export function formRow(
  columns: number,
  form: (close: () => void) => HTMLElement,
  opener: () => HTMLElement | undefined,
): { row: HTMLTableRowElement; open: () => void } {
  const row = h('tr', { class: 'form-row', hidden: true }, h('td', { colspan: columns }));
  const open = () => {
    row.hidden = false;
    const cell = row.firstElementChild!;
    fill(
      cell,
      form(() => {
        row.hidden = true;
        opener()?.focus();
      }),
    );
    cell.querySelector('textarea')?.focus();
  };
  return { row, open };
}
