/// <reference lib="dom" />
import type { ActivationView, EntryView } from '../../api-types.ts';
import type { RetractionOutcome } from '@learnables/protocol';
import { getJson, postJson, segment } from '../api.ts';
import type { AppContext } from '../app-context.ts';
import { fill, h, timeElement } from '../dom.ts';
import { entryHref, historyHref } from '../routes.ts';
import { changeSentence } from '../lesson-words.ts';
import { formRow, reasonForm } from './reason-form.ts';
import { columnHeads } from './table-heads.ts';

const COLUMNS = ['What it was taught', 'When'];

/** "Take back": a reason, then the retraction; the person signed in is its author. */
function retractForm(ctx: AppContext, entry: EntryView, lesson: ActivationView, close: () => void, done: (said: string) => Promise<void>): HTMLElement {
  return reasonForm({
    className: 'retract-form',
    label: `Why take back “${lesson.says ?? lesson.audit}”?`,
    help: `Recorded with your name (${ctx.operator}). Only this lesson is taken back; everything taught before and after it stays.`,
    confirm: 'Take back this lesson',
    send: (reason) =>
      postJson<RetractionOutcome>(`/collections/${segment(entry.collection)}/retractions`, { version: lesson.version, reason }).then((outcome) =>
        done(
          outcome.changed
            ? `Taken back: ${outcome.says ?? outcome.audit}. Everything else taught to ${entry.label} stays.`
            : `Nothing to take back: ${outcome.says ?? outcome.audit}.`,
        ),
      ),
    close,
  });
}

function taughtTable(ctx: AppContext, entry: EntryView, done: (said: string) => Promise<void>): HTMLElement {
  const body = h('tbody', {});
  for (const lesson of entry.taught) {
    const { row: formRowOf, open } = formRow(
      COLUMNS.length + 1,
      (close) => retractForm(ctx, entry, lesson, close, done),
      () => button,
    );
    const button =
      lesson.kind === 'lesson' || entry.taught.length === 1 ? h('button', { type: 'button', class: 'secondary', onclick: open }, 'Take back') : undefined;
    body.append(
      h(
        'tr',
        {},
        h(
          'td',
          { 'data-label': 'What it was taught', class: 'wrap-anywhere', title: lesson.client !== '' ? `Recorded through ${lesson.client}` : undefined },
          h('a', { href: historyHref(entry.collection, lesson.version) }, changeSentence(lesson)),
        ),
        h('td', { 'data-label': 'When', class: 'nowrap' }, timeElement(lesson.at)),
        h('td', { class: 'row-action' }, button),
      ),
      formRowOf,
    );
  }
  return h(
    'table',
    { class: 'data history taught' },
    h('caption', {}, `What ${entry.label} is taught now, newest first.`),
    columnHeads(COLUMNS, 'Take back'),
    body,
  );
}

function retractedList(entry: EntryView): HTMLElement | undefined {
  if (entry.retracted.length === 0) return undefined;
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'retracted-title' },
    h('h2', { id: 'retracted-title' }, 'Taken back'),
    h(
      'ul',
      { class: 'plain retracted' },
      entry.retracted.map(({ lesson, by }) =>
        h(
          'li',
          {},
          h('s', {}, lesson.says ?? lesson.audit),
          ` (taught by ${lesson.author}), taken back by ${by.author}, because “${by.reason}” `,
          timeElement(by.at),
        ),
      ),
    ),
  );
}

/** One entry: what it is taught now, lesson by lesson, each with who, why and when, and a way to take one back. */
export async function entryPage(main: HTMLElement, ctx: AppContext, collection: string, key: string, said?: string): Promise<void> {
  const entry = await getJson<EntryView>(`/collections/${segment(collection)}/entries/${segment(key)}`);
  const done = (sentence: string) => entryPage(main, ctx, collection, key, sentence);
  fill(
    main,
    said !== undefined && h('p', { class: 'notice notice-success', role: 'status' }, said),
    h('p', { class: 'eyebrow' }, h('a', { href: historyHref(collection) }, collection)),
    h('h1', { tabindex: -1 }, entry.label),
    entry.taught.length === 0
      ? h('p', { class: 'card empty' }, `Nothing has been taught to ${entry.label} since the start: it holds only what it was set up with.`)
      : h('div', { class: 'card table-card' }, taughtTable(ctx, entry, done)),
    retractedList(entry),
    h('p', {}, h('a', { href: entryHref(collection, key) }, 'Refresh'), ' · ', h('a', { href: historyHref(collection) }, `Every change to ${collection}`)),
  );
}
