/// <reference lib="dom" />
import type { ActivationView, CollectionView, HistoryResponse, RollbackPreviewView } from '../../api-types.ts';
import { ApiFailure, getJson, postJson, segment } from '../api.ts';
import type { AppContext } from '../app-context.ts';
import { fill, h, timeElement } from '../dom.ts';
import { rollbackPromise } from '../honesty.ts';
import { entryHref, historyHref } from '../routes.ts';
import { errorNotice } from './notices.ts';
import { formRow, reasonForm } from './reason-form.ts';

const COLUMNS = ['Version', 'Who', 'Why', 'What changed', 'When', ''];

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
          h(
            'a',
            { href: historyHref(collection.collection), 'aria-current': collection.collection === current ? 'page' : undefined },
            collection.collection,
            collection.activeVersion !== null && h('span', { class: 'muted' }, ` v${collection.activeVersion}`),
          ),
        ),
      ),
    ),
  );
}

/** One activation in a sentence: its version, what the learnable said it did, and who. */
const activationLine = (activation: ActivationView): HTMLElement =>
  h(
    'li',
    {},
    h('strong', {}, `v${activation.version}`),
    ` ${activation.audit} — ${activation.author}`,
    activation.reason !== '' && h('span', { class: 'muted' }, ` (“${activation.reason}”)`),
  );

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
                h('strong', {}, `Confirming takes ${undoes.length === 1 ? 'this change' : `these ${undoes.length} changes`} out of effect`),
                ', newest first (they stay in the history and can be brought back by rolling forward):',
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

function rollbackForm(ctx: AppContext, collection: CollectionView, activation: ActivationView, close: () => void): HTMLElement {
  const decidedBy = collection.agents[0]?.decidedBy ?? '';
  return reasonForm({
    className: 'rollback-form',
    before: rollbackEffect(collection, activation.version),
    label: `Why roll ${collection.collection} back to version ${activation.version}?`,
    help: `Recorded with your name (${ctx.operator}). ${rollbackPromise(decidedBy)}`,
    confirm: `Confirm rollback to v${activation.version}`,
    send: (reason) =>
      postJson<ActivationView>(`/collections/${segment(collection.collection)}/rollback`, { version: activation.version, reason }).then((done) =>
        ctx.navigate(historyHref(collection.collection, done.version)),
      ),
    close,
  });
}

function historyTable(ctx: AppContext, collection: CollectionView, history: HistoryResponse, highlight: number | undefined): HTMLElement {
  const activeId = history.activations[0]?.id;
  const highlighted = history.activations.find((activation) => activation.version === highlight)?.id;
  const body = h('tbody', {});
  for (const activation of history.activations) {
    const isActive = activation.id === activeId;
    const { row: formRowOf, open } = formRow(
      COLUMNS.length,
      (close) => rollbackForm(ctx, collection, activation, close),
      () => button,
    );
    const button =
      isActive || activation.version === history.activeVersion
        ? undefined
        : h('button', { type: 'button', class: 'secondary', onclick: open }, `Roll back to v${activation.version}`);
    body.append(
      h(
        'tr',
        {
          class: [isActive && 'active', activation.id === highlighted && 'highlight'].filter(Boolean).join(' ') || undefined,
          id: `activation-${activation.id}`,
        },
        h(
          'td',
          { 'data-label': 'Version', class: 'nowrap' },
          h('strong', {}, `v${activation.version}`),
          isActive && h('span', { class: 'badge' }, 'active'),
          h('span', { class: 'muted block kind' }, activation.kind),
        ),
        // Which program recorded it is for whoever audits; the clerk sees the person.
        h('td', { 'data-label': 'Who', title: activation.client !== '' ? `Recorded through ${activation.client}` : undefined }, activation.author),
        h('td', { 'data-label': 'Why', class: 'wrap-anywhere' }, activation.reason),
        h(
          'td',
          { 'data-label': 'What changed', class: 'wrap-anywhere' },
          activation.audit,
          activation.entry !== undefined && [
            ' ',
            h('a', { href: entryHref(collection.collection, activation.entry), class: 'entry-link' }, `what ${activation.entry} holds now`),
          ],
        ),
        h('td', { 'data-label': 'When', class: 'nowrap' }, timeElement(activation.at)),
        h('td', { class: 'row-action' }, button),
      ),
      formRowOf,
    );
  }
  return h(
    'table',
    { class: 'data history' },
    h('caption', {}, `Every activation of ${collection.collection}, newest first. Version ${history.activeVersion ?? '–'} is active.`),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        COLUMNS.map((title) => h('th', { scope: 'col' }, title)),
      ),
    ),
    body,
  );
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
  fill(
    main,
    h('h1', { tabindex: -1 }, 'History'),
    collectionNav(collections, collection.collection),
    h('p', { class: 'lead' }, users !== '' ? `${collection.collection} is used by ${users}.` : `No configured agent declares ${collection.collection}.`),
    h('div', { class: 'card table-card' }, historyTable(ctx, collection, history, highlight)),
  );
  if (highlight !== undefined) main.querySelector('tr.highlight')?.scrollIntoView({ block: 'center' });
}
