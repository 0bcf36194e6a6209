/// <reference lib="dom" />
import type { TaskView } from '../../api-types.ts';
import { getJson, segment } from '../api.ts';
import { fill, h, timeElement } from '../dom.ts';
import { questionHref } from '../routes.ts';
import { decidedByText, versionsView } from './notices.ts';
import { summaryView } from './summary-view.ts';

const STATE_WORDS: Record<TaskView['state'], string> = {
  asking: 'Waiting for an answer',
  decided: 'Decided',
  failed: 'Failed',
  working: 'Working',
  canceled: 'Canceled',
  rejected: 'Rejected',
  other: 'Answered with a message',
};

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
    summary && [h('h2', {}, 'What it was about'), summary],
    task.state === 'asking' && h('p', {}, h('a', { href: questionHref(task.agentId, task.taskId), class: 'button-link primary-link' }, 'Answer it')),
  );
}

export async function taskPage(main: HTMLElement, agentId: string, taskId: string): Promise<void> {
  const task = await getJson<TaskView>(`/agents/${segment(agentId)}/tasks/${segment(taskId)}`);
  fill(main, h('h1', { tabindex: -1 }, 'Task'), taskDetails(task));
}
