/// <reference lib="dom" />
import type { ActivationView, CollectionView, HistoryResponse, RollbackOutcomeView, RollbackPreviewView } from '../../api-types.ts';
import { ApiFailure, getJson, postJson, segment } from '../api.ts';
import type { AppContext } from '../app-context.ts';
import { fill, h, timeElement } from '../dom.ts';
import { rollbackPromise } from '../honesty.ts';
import { entryHref, historyHref } from '../routes.ts';
import { changeSentence, undoneAfter, whatChanged } from '../lesson-words.ts';
import { errorNotice } from './notices.ts';
import { columnHeads } from './table-heads.ts';
import { formRow, reasonForm } from './reason-form.ts';

const COLUMNS = ['What happened', 'When'];

function collectionNav(collections: readonly CollectionView[], current: string | undefined): HTMLElement {
  return h(
    'nav',
    { class: 'tabs', 'aria-label': 'Collections' },
    h(
      'ul',
      {},
      collections.map((collection) =>
        h(
          'li',
          {},
          h('a', { href: historyHref(collection.collection), 'aria-current': collection.collection === current ? 'page' : undefined }, collection.collection),
        ),
      ),
    ),
  );
}

/** One change in a sentence: who, what in the learnable's words, and why (no version numbers). */
const activationLine = (activation: ActivationView): HTMLElement => h('li', {}, changeSentence(activation), ' ', timeElement(activation.at));

/** What confirming will take out of effect and bring back, read from the authority before anything is written. */
function rollbackEffect(collection: CollectionView, version: number): HTMLElement {
  const box = h('div', { class: 'rollback-effect', 'aria-live': 'polite' }, h('p', { class: 'muted' }, 'Looking up what this would undo…'));
  void getJson<RollbackPreviewView>(`/collections/${segment(collection.collection)}/rollback-preview?version=${version}`)
    .then((effect) => {
      const undoes = [...effect.undoes].reverse();
      fill(
        box,
        undoes.length === 0
          ? h('p', {}, 'Confirming takes no lesson out of effect.')
          : [
              h(
                'p',
                {},
                h('strong', {}, `Confirming undoes ${undoes.length === 1 ? 'this change' : `these ${undoes.length} changes`}`),
                ', newest first (they stay in the history, and can be brought back from there):',
              ),
              h('ul', { class: 'plain undoes' }, undoes.slice(0, 50).map(activationLine)),
              undoes.length > 50 && h('p', { class: 'muted' }, `and ${undoes.length - 50} older ones.`),
            ],
        effect.restores.length > 0 && [
          h('p', {}, h('strong', {}, 'It brings back'), ':'),
          h('ul', { class: 'plain restores' }, effect.restores.slice(0, 50).map(activationLine)),
        ],
      );
    })
    .catch((error: unknown) => fill(box, errorNotice(`What this would undo cannot be shown: ${error instanceof ApiFailure ? error.message : String(error)}`)));
  return box;
}

/** What the next drawing of the history says first: the sentence after a confirmed rollback. */
let doneSentence: string | undefined;

function rollbackForm(ctx: AppContext, collection: CollectionView, activation: ActivationView, close: () => void): HTMLElement {
  const decidedBy = collection.agents[0]?.decidedBy ?? '';
  return reasonForm({
    className: 'rollback-form',
    before: rollbackEffect(collection, activation.version),
    label: `Why undo the changes made after “${whatChanged(activation)}”?`,
    help: `Recorded with your name (${ctx.operator}). ${rollbackPromise(decidedBy)}`,
    confirm: 'Confirm: undo the changes after this',
    send: (reason) =>
      postJson<RollbackOutcomeView>(`/collections/${segment(collection.collection)}/rollback`, { version: activation.version, reason }).then((done) => {
        const undone = done.undoes?.length ?? 0;
        doneSentence =
          done.changed === false
            ? 'Nothing was undone: that is how it stands already.'
            : `Undone: ${undone === 1 ? '1 change is' : `${undone} changes are`} no longer in effect. ${undone === 1 ? 'It stays' : 'They stay'} in this history, and can be brought back from here.`;
        ctx.navigate(historyHref(collection.collection, done.version));
      }),
    close,
  });
}

function historyTable(ctx: AppContext, collection: CollectionView, history: HistoryResponse, highlight: number | undefined): HTMLElement {
  const activeId = history.activations[0]?.id;
  const highlighted = history.activations.find((activation) => activation.version === highlight)?.id;
  const body = h('tbody', {});
  const after = undoneAfter(history.activations);
  for (const activation of history.activations) {
    const isActive = activation.id === activeId;
    const { row: formRowOf, open } = formRow(
      COLUMNS.length + 1,
      (close) => rollbackForm(ctx, collection, activation, close),
      () => button,
    );
    const sentenceId = `activation-${activation.id}-words`;
    const button =
      isActive || activation.version === history.activeVersion
        ? undefined
        : h('button', { type: 'button', class: 'secondary', onclick: open, 'aria-describedby': sentenceId }, 'Undo the changes after this');
    body.append(
      h(
        'tr',
        {
          class: [isActive && 'active', activation.id === highlighted && 'highlight'].filter(Boolean).join(' ') || undefined,
          id: `activation-${activation.id}`,
        },
        // Which program recorded it is for whoever audits; the clerk reads the person and the words.
        h(
          'td',
          {
            'data-label': 'What happened',
            class: 'wrap-anywhere',
            id: sentenceId,
            title: activation.client !== '' ? `Recorded through ${activation.client}` : undefined,
          },
          changeSentence(activation, after.get(activation.id)),
          isActive && [' ', h('span', { class: 'badge' }, 'in effect now')],
          activation.entry !== undefined &&
            activation.kind !== 'seed' && [
              ' ',
              h(
                'a',
                { href: entryHref(collection.collection, activation.entry), class: 'entry-link' },
                `what ${activation.entryLabel ?? activation.entry} holds now`,
              ),
            ],
        ),
        h('td', { 'data-label': 'When', class: 'nowrap' }, timeElement(activation.at)),
        h('td', { class: 'row-action' }, button),
      ),
      formRowOf,
    );
  }
  return h('table', { class: 'data history' }, h('caption', {}, `Every change to ${collection.collection}, newest first.`), columnHeads(COLUMNS, 'Undo'), body);
}

export async function historyPage(main: HTMLElement, ctx: AppContext, wanted: string | undefined, highlight: number | undefined): Promise<void> {
  const { collections } = await getJson<{ collections: CollectionView[] }>('/collections');
  const current = wanted ?? collections[0]?.collection;
  const collection = collections.find((candidate) => candidate.collection === current);
  if (!collection) {
    fill(
      main,
      h('h1', { tabindex: -1 }, 'History'),
      collectionNav(collections, undefined),
      current === undefined
        ? h('p', { class: 'card empty' }, 'The authority holds no collections yet.')
        : errorNotice(`The authority has no collection “${current}”.`),
    );
    return;
  }
  const history = await getJson<HistoryResponse>(`/collections/${segment(collection.collection)}/history`);
  const users = collection.agents.map((agent) => `${agent.name} (decided by ${agent.decidedBy || 'unknown means'})`).join(', ');
  const said = doneSentence;
  doneSentence = undefined;
  fill(
    main,
    said !== undefined && h('p', { class: 'notice notice-success rollback-done', role: 'status' }, said),
    h('h1', { tabindex: -1 }, 'History'),
    collectionNav(collections, collection.collection),
    h('p', { class: 'lead' }, users !== '' ? `${collection.collection} is used by ${users}.` : `No configured agent declares ${collection.collection}.`),
    h('div', { class: 'card table-card' }, historyTable(ctx, collection, history, highlight)),
  );
  if (highlight !== undefined) main.querySelector('tr.highlight')?.scrollIntoView({ block: 'center' });
}
