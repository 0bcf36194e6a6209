/// <reference lib="dom" />
import { h } from '../dom.ts';
import type { SummaryItem, SummaryValue } from '../summary-items.ts';
import { summaryItems } from '../summary-items.ts';

function drawValue(value: SummaryValue, label: string): HTMLElement {
  switch (value.kind) {
    case 'text':
      return h('span', { class: 'summary-text' }, value.text);
    case 'list':
      return h(
        'span',
        {},
        h(
          'ul',
          { class: 'summary-list' },
          value.items.map((item) => h('li', {}, item)),
        ),
        value.more > 0 && h('span', { class: 'muted' }, `and ${value.more} more`),
      );
    case 'table':
      return h(
        'span',
        // A table wider than the card scrolls inside it; focusable and named, so a keyboard can scroll it too.
        { class: 'summary-table-wrap', tabindex: 0, role: 'region', 'aria-label': label !== '' ? label : 'Table' },
        h(
          'table',
          { class: 'summary-table' },
          value.head &&
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                value.head.map((cell) => h('th', { scope: 'col' }, cell)),
              ),
            ),
          h(
            'tbody',
            {},
            value.rows.map((row) =>
              h(
                'tr',
                {},
                row.map((cell) => h('td', {}, cell)),
              ),
            ),
          ),
        ),
        value.more > 0 && h('span', { class: 'muted' }, `and ${value.more} more rows`),
      );
    case 'group':
      return drawItems(value.items);
  }
}

function drawItems(items: readonly SummaryItem[]): HTMLElement {
  return h(
    'dl',
    { class: 'summary' },
    items.map((item) => [item.label !== '' && h('dt', {}, item.label), h('dd', {}, drawValue(item.value, item.label))]),
  );
}

/** The agent's summary of what it was sent, drawn by shape alone; undefined when there is none. */
export function summaryView(summary: unknown): HTMLElement | undefined {
  const items = summaryItems(summary);
  return items.length > 0 ? drawItems(items) : undefined;
}
