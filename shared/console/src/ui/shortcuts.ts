/// <reference lib="dom" />
import { h } from './dom.ts';

/** Every shortcut the console answers, as the `?` overlay lists them. */
export const SHORTCUTS: readonly (readonly [keys: string, what: string])[] = [
  ['j / k', 'Next / previous question in the list'],
  ['Enter', 'Open the question in focus'],
  ['/', 'Find: the list’s search, or the answers on a question'],
  ['1 – 9', 'Pick that answer on an open question'],
  ['Ctrl + Enter', 'Send the answer (⌘ + Enter on a Mac)'],
  ['u', 'Back to the questions'],
  ['?', 'Show these shortcuts'],
  ['Esc', 'Close this list'],
];

/** Typing into a field is typing, not a shortcut. */
function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && !['radio', 'checkbox', 'button', 'submit'].includes(target.type);
}

const visible = (element: HTMLElement) => element.getClientRects().length > 0;

function moveInList(step: 1 | -1): void {
  const rows = Array.from(document.querySelectorAll<HTMLElement>('main [data-row-link]')).filter(visible);
  if (rows.length === 0) return;
  const at = rows.indexOf(document.activeElement as HTMLElement);
  const next = rows[at === -1 ? (step === 1 ? 0 : rows.length - 1) : Math.min(rows.length - 1, Math.max(0, at + step))]!;
  next.focus();
  next.scrollIntoView({ block: 'nearest' });
}

function overlay(): HTMLDialogElement {
  const existing = document.querySelector<HTMLDialogElement>('dialog.shortcuts');
  if (existing) return existing;
  const close = h('button', { type: 'button', class: 'secondary' }, 'Close');
  const dialog = h(
    'dialog',
    { class: 'shortcuts', 'aria-labelledby': 'shortcuts-title' },
    h('h2', { id: 'shortcuts-title' }, 'Keyboard shortcuts'),
    h(
      'dl',
      {},
      SHORTCUTS.map(([keys, what]) => [h('dt', {}, h('kbd', {}, keys)), h('dd', {}, what)]),
    ),
    h('div', { class: 'actions' }, close),
  );
  close.addEventListener('click', () => dialog.close());
  document.body.append(dialog);
  return dialog;
}

/** Listen for the console's shortcuts on the whole page; every one also has a visible control. */
export function installShortcuts(navigate: (hash: string) => void): void {
  document.addEventListener('keydown', (event) => {
    if (event.defaultPrevented || event.altKey) return;
    const form = (event.target as Element | null)?.closest?.('form.answer-form') ?? document.querySelector('form.answer-form');
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      if (form instanceof HTMLFormElement) {
        event.preventDefault();
        form.requestSubmit();
      }
      return;
    }
    if (event.ctrlKey || event.metaKey || typing(event.target) || document.querySelector('dialog[open]')) return;
    if (event.key === '?') {
      event.preventDefault();
      overlay().showModal();
    } else if (event.key === 'j' || event.key === 'k') {
      event.preventDefault();
      moveInList(event.key === 'j' ? 1 : -1);
    } else if (event.key === '/') {
      const find = document.querySelector<HTMLElement>('main [data-find]');
      if (find) {
        event.preventDefault();
        find.focus();
      }
    } else if (event.key === 'u') {
      event.preventDefault();
      navigate('#/');
    } else if (/^[1-9]$/.test(event.key) && form) {
      const choices = Array.from(form.querySelectorAll<HTMLInputElement>('input[name="answer-entry"]')).filter((input) => visible(input) && !input.disabled);
      const choice = choices[Number(event.key) - 1];
      if (choice) {
        event.preventDefault();
        choice.checked = true;
        choice.dispatchEvent(new Event('change', { bubbles: true }));
        choice.focus();
      }
    }
  });
}
