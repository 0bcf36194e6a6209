/// <reference lib="dom" />
import type { PreviewExample, PreviewResult } from '@learnables/protocol';
import { h } from '../dom.ts';
import { taskHref } from '../routes.ts';

export interface PreviewWords {
  readonly agentId: string;
  readonly agentName: string;
  /** What one item is called on the card, e.g. "customer". */
  readonly entryWord: string;
  /** An entry's label, from the question's own entries (the key when it offers none). */
  readonly labelOf: (key: string) => string;
}

const plural = (count: number, one: string, many: string) => (count === 1 ? `1 ${one}` : `${count} ${many}`);
/** How many examples of one effect are shown; the counts say how many there are. */
const SHOWN = 5;

/** What a person said of a message, in words. */
const saidWords = (said: NonNullable<PreviewExample['said']>, words: PreviewWords): string =>
  `${said.by === 'answer' ? 'Answered' : 'Corrected to'}: ${said.none === true || said.entry === undefined ? 'none of these' : words.labelOf(said.entry)}.`;

function examples(
  list: readonly PreviewExample[],
  words: PreviewWords,
  effect: PreviewExample['effect'],
  which: (example: PreviewExample) => boolean = () => true,
): HTMLElement | undefined {
  const chosen = list.filter((example) => example.effect === effect && which(example)).slice(0, SHOWN);
  if (chosen.length === 0) return undefined;
  return h(
    'ul',
    { class: 'plain preview-examples' },
    chosen.map((example) =>
      h(
        'li',
        {},
        h('a', { href: taskHref(words.agentId, example.taskId) }, 'This message'),
        h('span', { class: 'muted' }, ' now: '),
        example.now.reads,
        h('span', { class: 'muted' }, ' With the lesson: '),
        example.after.reads,
        example.said && h('span', { class: 'muted' }, ` ${saidWords(example.said, words)}`),
      ),
    ),
  );
}

/**
 * What a lesson would do, in plain words, before the clerk confirms it (SPEC §6.5): the agent read
 * its recent messages under the live rules and under the lesson. Taking messages from another
 * entry, or making decided ones undecided, is said first and as a warning.
 */
export function previewView(result: PreviewResult, words: PreviewWords): HTMLElement {
  const { counts, examined } = result;
  // Messages a person answered or corrected otherwise are said apart: what they said is the truth.
  const against = counts.against ?? 0;
  const taken = counts.changes - against;
  // Left open because the lesson shows the evidence is another entry's too (SPEC §6.5 `contested`): information, not a warning.
  const contested = counts.contested ?? 0;
  const unsettled = counts.unsettles - contested;
  const warn = taken > 0 || unsettled > 0 || against > 0;
  const partial = result.tried !== undefined && result.recent !== undefined && result.tried < result.recent;
  const target = words.labelOf(result.entry);
  if (!result.changed) {
    return h(
      'div',
      { class: 'notice notice-info preview', role: 'status' },
      h('p', {}, `${words.agentName} already knows this; the lesson would change nothing.`),
      h('p', { class: 'muted' }, result.says ?? result.audit),
    );
  }
  return h(
    'div',
    { class: `notice ${warn ? 'notice-warning' : 'notice-info'} preview`, role: 'status' },
    // The learnable's words first; its exact sentence one click away (SPEC §3.6).
    result.says !== undefined
      ? [
          h('p', { class: 'preview-says' }, h('strong', {}, 'The lesson: '), `${target}: ${result.says}.`),
          h('details', { class: 'lesson-exact' }, h('summary', {}, 'The exact rule'), h('p', {}, result.audit)),
        ]
      : h('p', {}, h('strong', {}, 'What this lesson would do: '), result.audit, '.'),
    partial &&
      h(
        'p',
        { class: 'preview-partial' },
        `${words.agentName} tried the lesson on the latest ${plural(result.tried!, 'message', 'messages')} of the ${result.recent} it received recently; a preview stops after a few seconds, so the older ones were not tried.`,
      ),
    (result.tooLarge ?? 0) > 0 &&
      h(
        'p',
        { class: 'preview-partial' },
        `${plural(result.tooLarge!, 'recent message was', 'recent messages were')} too large to try it on here, so ${result.tooLarge === 1 ? 'it is' : 'they are'} not counted below.`,
      ),
    examined === 0
      ? h('p', {}, `${words.agentName} has no recent messages to try it on, so nothing can be compared yet.`)
      : [
          h('p', {}, `Tried on the last ${plural(examined, 'message', 'messages')} ${words.agentName} received:`),
          h(
            'ul',
            { class: 'preview-counts' },
            against > 0 &&
              h(
                'li',
                { class: 'preview-against' },
                h(
                  'strong',
                  {},
                  `${plural(against, 'message', 'messages')} someone answered or corrected (as another ${words.entryWord}, or none of these) would go to ${target}, against what they said.`,
                ),
                examples(result.examples, words, 'changes', (example) => example.said !== undefined),
              ),
            taken > 0 &&
              h(
                'li',
                { class: 'preview-takes' },
                h('strong', {}, `${plural(taken, 'message', 'messages')} decided for another ${words.entryWord} would go to ${target} instead.`),
                examples(result.examples, words, 'changes', (example) => example.said === undefined),
              ),
            unsettled > 0 &&
              h(
                'li',
                { class: 'preview-unsettles' },
                h('strong', {}, `${plural(unsettled, 'message', 'messages')} decided now would no longer be decided; ${words.agentName} would ask about them.`),
                examples(result.examples, words, 'unsettles', (example) => example.after.contested !== true),
              ),
            contested > 0 &&
              h(
                'li',
                { class: 'preview-contested' },
                `${plural(contested, 'message', 'messages')} decided now would be asked about: the lesson shows that what decided ${contested === 1 ? 'it' : 'them'} fits another ${words.entryWord} too.`,
                examples(result.examples, words, 'unsettles', (example) => example.after.contested === true),
              ),
            counts.settles > 0 &&
              h(
                'li',
                {},
                `${plural(counts.settles, 'message', 'messages')} it could not decide would be decided.`,
                examples(result.examples, words, 'settles'),
              ),
            counts.stillOpen > 0 && h('li', {}, `${plural(counts.stillOpen, 'message', 'messages')} it could not decide would still be asked about.`),
            counts.changes + counts.unsettles + counts.settles + counts.stillOpen === 0 && h('li', {}, 'None of them would be read differently.'),
          ),
        ],
    warn && h('p', {}, `If that is not what you meant, change the lesson above; otherwise confirm.`),
  );
}
