/// <reference lib="dom" />
import { h } from '../dom.ts';

/**
 * A table's column headings, the last one (a row's button) named for screen readers only: a visibly
 * empty heading is what axe's `empty-table-header` reports, and a visible "Action" says nothing a clerk needs.
 */
export const columnHeads = (titles: readonly string[], action: string): HTMLElement =>
  h(
    'thead',
    {},
    h(
      'tr',
      {},
      titles.map((title) => h('th', { scope: 'col' }, title)),
      h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, action)),
    ),
  );
