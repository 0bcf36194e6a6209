/// <reference lib="dom" />
import type { AgentView, TaskView } from '../../api-types.ts';
import { agentsAccepting, KNOWN_EXTENSIONS, mediaTypeOf } from '../../media/media-types.ts';
import { ApiFailure, postFile, postJson, segment } from '../api.ts';
import type { AppContext } from '../app-context.ts';
import { fill, h, uniqueId } from '../dom.ts';
import { questionHref } from '../routes.ts';
import { errorNotice, versionsView } from './notices.ts';

const size = (bytes: number) => (bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} kB` : `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`);

/** What became of a sent message: a question to answer, or a decision with the version that made it. */
function outcomeView(task: TaskView): HTMLElement {
  if (task.state === 'asking') {
    return h(
      'div',
      { class: 'notice notice-info' },
      h('p', {}, h('strong', {}, `${task.agentName} has a question: `), task.said),
      h('p', {}, h('a', { href: questionHref(task.agentId, task.taskId), class: 'button-link primary-link' }, 'Answer it')),
    );
  }
  if (task.state === 'decided') {
    return h('div', { class: 'notice notice-success' }, h('p', {}, h('strong', {}, `${task.agentName} decided: `), task.said), versionsView(task.versions));
  }
  return h('div', { class: 'notice notice-error', role: 'alert' }, h('p', {}, h('strong', {}, `${task.agentName}: `), task.said || 'the task ended without a word.'));
}

/** A select among the agents that read a media type, or a sentence naming the only one. */
function agentChooser(candidates: readonly AgentView[], label: string): { element: HTMLElement; chosen: () => AgentView | undefined } {
  if (candidates.length === 1) {
    return { element: h('p', { class: 'route' }, `Goes to ${candidates[0]!.name ?? candidates[0]!.url}.`), chosen: () => candidates[0] };
  }
  const id = uniqueId('send-to');
  const select = h('select', { id }, candidates.map((agent) => h('option', { value: agent.id }, agent.name ?? agent.url)));
  return {
    element: h('div', { class: 'field' }, h('label', { for: id }, label), select),
    chosen: () => candidates.find((agent) => agent.id === select.value),
  };
}

function fileSection(agents: readonly AgentView[], result: HTMLElement): HTMLElement {
  const inputId = uniqueId('file');
  const accepted = [...new Set([...KNOWN_EXTENSIONS, ...agents.flatMap((agent) => agent.accepts)])].join(',');
  const input = h('input', { type: 'file', id: inputId, name: 'file', accept: accepted });
  const details = h('div', { class: 'file-details', 'aria-live': 'polite' });
  const send = h('button', { type: 'submit', class: 'primary', disabled: true }, 'Send file');
  let picked: { file: File; mediaType: string; chosen: () => AgentView | undefined } | undefined;

  const pick = (file: File) => {
    const mediaType = mediaTypeOf(file.name) ?? file.type;
    const candidates = mediaType === '' ? [] : agentsAccepting(agents, mediaType);
    picked = undefined;
    send.disabled = true;
    if (candidates.length === 0) {
      fill(details, h('p', {}, h('strong', {}, file.name), ` · ${size(file.size)}`), errorNotice(`No agent here reads ${mediaType || 'this kind of file'}: ${agents.map((agent) => `${agent.name ?? agent.url} reads ${agent.accepts.join(', ') || 'nothing it says'}`).join('; ')}.`));
      return;
    }
    const chooser = agentChooser(candidates, 'Send to');
    picked = { file, mediaType, chosen: chooser.chosen };
    fill(details, h('p', {}, h('strong', {}, file.name), ` · ${size(file.size)} · ${mediaType}`), chooser.element);
    send.disabled = false;
  };

  input.addEventListener('change', () => {
    const file = input.files?.[0];
    if (file) pick(file);
  });
  const zone = h(
    'label',
    { class: 'drop-zone', for: inputId },
    h('span', { class: 'drop-title' }, 'Drop a file here, or choose one'),
    h('span', { class: 'muted' }, 'An .eml message, or an .xlsx or .csv sheet. The agent is chosen from what each agent’s card says it reads.'),
  );
  zone.addEventListener('dragover', (event) => {
    event.preventDefault();
    zone.classList.add('dragging');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('dragging'));
  zone.addEventListener('drop', (event) => {
    event.preventDefault();
    zone.classList.remove('dragging');
    const file = event.dataTransfer?.files[0];
    if (file) pick(file);
  });

  const form = h('form', { class: 'card' }, h('h2', {}, 'Send a file'), zone, input, details, h('div', { class: 'actions' }, send));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const agent = picked?.chosen();
    if (!picked || !agent) return;
    send.disabled = true;
    fill(result, h('p', { class: 'muted' }, `Sending ${picked.file.name} to ${agent.name ?? agent.url}…`));
    void postFile<{ task: TaskView }>(`/agents/${segment(agent.id)}/files?filename=${encodeURIComponent(picked.file.name)}`, picked.file, picked.mediaType)
      .then(({ task }) => fill(result, outcomeView(task)))
      .catch((error: unknown) => fill(result, errorNotice(error instanceof ApiFailure ? error.message : String(error))))
      .finally(() => {
        send.disabled = false;
      });
  });
  return form;
}

function noteSection(agents: readonly AgentView[], result: HTMLElement): HTMLElement {
  const readers = agentsAccepting(agents, 'text/plain');
  if (readers.length === 0) {
    return h('section', { class: 'card' }, h('h2', {}, 'Write a note'), h('p', { class: 'muted' }, 'No agent here reads plain text.'));
  }
  const id = uniqueId('note');
  const note = h('textarea', { id, name: 'note', rows: 3, required: true });
  const chooser = agentChooser(readers, 'Send to');
  const send = h('button', { type: 'submit', class: 'primary' }, 'Send note');
  const form = h('form', { class: 'card' }, h('h2', {}, 'Write a note'), h('div', { class: 'field' }, h('label', { for: id }, 'Text'), note), chooser.element, h('div', { class: 'actions' }, send));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const agent = chooser.chosen();
    if (!agent) return;
    send.disabled = true;
    void postJson<{ task: TaskView }>(`/agents/${segment(agent.id)}/notes`, { text: note.value })
      .then(({ task }) => {
        note.value = '';
        fill(result, outcomeView(task));
      })
      .catch((error: unknown) => fill(result, errorNotice(error instanceof ApiFailure ? error.message : String(error))))
      .finally(() => {
        send.disabled = false;
      });
  });
  return form;
}

export async function sendPage(main: HTMLElement, ctx: AppContext): Promise<void> {
  const agents = (await ctx.agents(true)).filter((agent) => agent.reachable);
  const result = h('div', { class: 'send-result', 'aria-live': 'polite' });
  fill(
    main,
    h('h1', { tabindex: -1 }, 'Send'),
    h('p', { class: 'lead' }, 'Give an agent something to read. If it cannot decide, its question lands in Questions.'),
    result,
    h('div', { class: 'send-grid' }, fileSection(agents, result), noteSection(agents, result)),
  );
}
