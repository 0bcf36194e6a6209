/// <reference lib="dom" />
import type { FindingView, TaskView } from '../../api-types.ts';
import { getJson, segment } from '../api.ts';
import { fill, h, timeElement } from '../dom.ts';
import { entryHref, historyHref, questionHref } from '../routes.ts';
import { labelOf } from '../summary-items.ts';
import { decidedByText, versionsView } from './notices.ts';
import { summaryView } from './summary-view.ts';
import type { AppContext } from '../app-context.ts';
import { correctionsSection } from './corrections-view.ts';

const STATE_WORDS: Record<TaskView['state'], string> = {
  asking: 'Waiting for an answer',
  decided: 'Decided',
  failed: 'Failed',
  working: 'Working',
  canceled: 'Canceled',
  rejected: 'Rejected',
  other: 'Answered with a message',
};

/**
 * What decided a finished task, answered on screen: each finding in the agent's words, the version
 * it was read with, and where to see who taught the winning entry what.
 */
function decidedItView(task: TaskView): HTMLElement | undefined {
  if (!task.findings || task.state !== 'decided') return undefined;
  const item = (finding: FindingView) => {
    const version = task.versions?.[finding.collection];
    return h(
      'li',
      {},
      h('span', { class: 'reading-name' }, labelOf(finding.name)),
      h('p', { class: 'reads' }, finding.reads),
      h(
        'p',
        { class: 'muted' },
        version !== undefined && ['Read with ', h('a', { href: historyHref(finding.collection, version) }, `what it knew of ${finding.collection} then`), '. '],
        finding.winner !== undefined && h('a', { href: entryHref(finding.collection, finding.winner) }, 'Who taught it this, and when'),
      ),
    );
  };
  return h(
    'section',
    { class: 'decided-it', 'aria-labelledby': 'decided-it-title' },
    h('h2', { id: 'decided-it-title' }, 'What decided it'),
    h('ul', { class: 'readings' }, task.findings.map(item)),
  );
}

/** A task's ending: what the agent said, which version of which collection decided it, and who. */
export function taskDetails(task: TaskView): HTMLElement {
  const summary = summaryView(task.summary);
  const by = decidedByText(task);
  return h(
    'section',
    { class: 'card task-details' },
    h('p', { class: 'eyebrow' }, task.agentName, ' · ', STATE_WORDS[task.state], ' · ', timeElement(task.at)),
    task.said !== '' && h('p', { class: `said state-${task.state}` }, task.said),
    (task.versions || by !== '') && h('p', {}, versionsView(task.versions), by !== '' && h('span', { class: 'muted' }, task.versions ? ` · ${by}` : by)),
    decidedItView(task),
    summary && [h('h2', {}, 'What it was about'), summary],
    task.state === 'asking' && h('p', {}, h('a', { href: questionHref(task.agentId, task.taskId), class: 'button-link primary-link' }, 'Answer it')),
  );
}

export async function taskPage(main: HTMLElement, ctx: AppContext, agentId: string, taskId: string): Promise<void> {
  const task = await getJson<TaskView>(`/agents/${segment(agentId)}/tasks/${segment(taskId)}`);
  fill(main, h('h1', { tabindex: -1 }, 'Task'), taskDetails(task), await correctionsSection(ctx, task));
}
