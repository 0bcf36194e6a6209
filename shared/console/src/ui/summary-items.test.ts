import { describe, expect, it } from 'vitest';
import { cellText, labelOf, summaryItems } from './summary-items.ts';

describe('summaryItems draws an agent summary by the shape of each value, never by its key', () => {
  it('shows strings as text, lists of strings as lists and lists of lists as tables, whatever the keys are called', () => {
    expect(
      summaryItems({
        sender: 'ops@example.test',
        topics: ['pallets', 'Tuesday', 'dock 4'],
        grid: [
          ['Ref', 'Qty'],
          ['A-1', 4],
        ],
      }),
    ).toEqual([
      { label: 'Sender', value: { kind: 'text', text: 'ops@example.test' } },
      { label: 'Topics', value: { kind: 'list', items: ['pallets', 'Tuesday', 'dock 4'], more: 0 } },
      {
        label: 'Grid',
        value: {
          kind: 'table',
          rows: [
            ['Ref', 'Qty'],
            ['A-1', '4'],
          ],
          more: 0,
        },
      },
    ]);
  });

  it('draws the same shapes identically under any key names', () => {
    const shapes = (summary: Record<string, unknown>) => summaryItems(summary).map((item) => item.value);
    expect(shapes({ a: 'x', b: ['y'], c: [['z']] })).toEqual(shapes({ zebra: 'x', quux: ['y'], frobs: [['z']] }));
  });

  it('draws a list just before rows exactly as wide as it as the header row of one table', () => {
    expect(
      summaryItems({
        file: 'a.csv',
        cols: ['Ref', 'Qty'],
        sample: [
          ['A-1', 4],
          ['B-2', 5],
        ],
      }),
    ).toEqual([
      { label: 'File', value: { kind: 'text', text: 'a.csv' } },
      {
        label: 'Sample',
        value: {
          kind: 'table',
          head: ['Ref', 'Qty'],
          rows: [
            ['A-1', '4'],
            ['B-2', '5'],
          ],
          more: 0,
        },
      },
    ]);
    // Not as wide, or not just before: two items, as before.
    expect(summaryItems({ cols: ['Ref', 'Qty', 'Note'], sample: [['A-1', 4]] }).map((item) => item.value.kind)).toEqual(['list', 'table']);
    expect(summaryItems({ cols: ['Ref', 'Qty'], note: 'x', sample: [['A-1', 4]] }).map((item) => item.value.kind)).toEqual(['list', 'text', 'table']);
  });

  it('makes labels from the key spelling alone', () => {
    expect(['firstRows', 'first_rows', 'first-rows', 'excerpt', 'HTTPStatus'].map(labelOf)).toEqual([
      'First rows',
      'First rows',
      'First rows',
      'Excerpt',
      'Httpstatus',
    ]);
  });

  it('skips empty values, nests objects, and shows anything else as compact text', () => {
    expect(summaryItems({ nothing: null, blank: '', none: [], count: 3, ok: true, inner: { deep: { deeper: { deepest: 1 } } } })).toEqual([
      { label: 'Count', value: { kind: 'text', text: '3' } },
      { label: 'Ok', value: { kind: 'text', text: 'true' } },
      {
        label: 'Inner',
        value: {
          kind: 'group',
          items: [{ label: 'Deep', value: { kind: 'group', items: [{ label: 'Deeper', value: { kind: 'text', text: '{"deepest":1}' } }] } }],
        },
      },
    ]);
    expect(summaryItems(['loose', 'list'])).toEqual([{ label: '', value: { kind: 'list', items: ['loose', 'list'], more: 0 } }]);
    expect(summaryItems(undefined)).toEqual([]);
  });

  it('bounds what it shows: long lists, big tables and long texts are cut with a count of the rest', () => {
    const [list] = summaryItems({ many: Array.from({ length: 30 }, (_, i) => `w${i}`) });
    expect(list?.value).toMatchObject({ kind: 'list', more: 18 });
    const [table] = summaryItems({ rows: Array.from({ length: 20 }, () => Array.from({ length: 40 }, () => 'c')) });
    expect(table?.value).toMatchObject({ kind: 'table', more: 12 });
    expect(table?.value.kind === 'table' && table.value.rows[0]).toHaveLength(12);
    expect(cellText('x'.repeat(5000))).toHaveLength(600);
  });
});
