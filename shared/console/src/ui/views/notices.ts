/// <reference lib="dom" />
import type { AgentProblem, AgentView, TaskView } from '../../api-types.ts';
import { h } from '../dom.ts';
import { historyHref } from '../routes.ts';

/** A sentence to act on, announced to screen readers. */
export const errorNotice = (message: string): HTMLElement => h('p', { class: 'notice notice-error', role: 'alert' }, message);

export const warningNotice = (...children: (Node | string)[]): HTMLElement => h('div', { class: 'notice notice-warning', role: 'status' }, ...children);

/** Agents that could not be asked, named, so an empty inbox is not mistaken for a quiet one. */
export function problemsNotice(problems: readonly AgentProblem[], agents: readonly AgentView[]): HTMLElement | undefined {
  if (problems.length === 0) return undefined;
  const nameOf = (id: string) => agents.find((agent) => agent.id === id)?.name ?? id;
  return warningNotice(
    h(
      'ul',
      { class: 'plain' },
      problems.map((problem) => h('li', {}, h('strong', {}, nameOf(problem.agentId)), ': ', problem.message)),
    ),
  );
}

/**
 * "Decided with what it knew of customers then": which state of which collection decided a task,
 * each a link to that point of its history. No version number: the clerk reads the history's sentences.
 */
export function versionsView(versions: TaskView['versions'], prefix = 'Decided with '): HTMLElement | undefined {
  const pairs = Object.entries(versions ?? {});
  if (pairs.length === 0) return undefined;
  return h(
    'span',
    { class: 'versions' },
    prefix,
    pairs.map(([collection, version], index) => [
      index > 0 && ', ',
      h('a', { href: historyHref(collection, version), class: 'version-link' }, `what it knew of ${collection} then`),
    ]),
  );
}

/** Who or what decided a finished task, in words. */
export function decidedByText(task: TaskView): string {
  if (task.decidedBy === 'operator') return task.answeredBy ? `answered by ${task.answeredBy}` : 'answered by a person';
  if (task.decidedBy === 'rules') return 'decided without asking';
  return task.decidedBy ? `decided by ${task.decidedBy}` : '';
}
