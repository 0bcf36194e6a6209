/// <reference lib="dom" />
import type { AgentView, TaskView } from '../../api-types.ts';
import { agentsAccepting, KNOWN_EXTENSIONS, mediaTypeOf } from '../../media/media-types.ts';
import { ApiFailure, postFile, postJson, segment } from '../api.ts';
import type { AppContext } from '../app-context.ts';
import { fill, h, timeElement, uniqueId } from '../dom.ts';
import { kindOf } from '../file-kinds.ts';
import type { Fingerprint } from '../sent-files.ts';
import { fingerprintOf, rememberSent, sentBefore } from '../sent-files.ts';
import { questionHref, taskHref } from '../routes.ts';
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
    // The message's page is where a wrong decision is corrected: one link away from the result.
    return h(
      'div',
      { class: 'notice notice-success' },
      h('p', {}, h('strong', {}, `${task.agentName} decided: `), task.said),
      h(
        'p',
        {},
        versionsView(task.versions),
        ' ',
        h('a', { href: taskHref(task.agentId, task.taskId), class: 'task-link' }, 'See this message, or say the decision was wrong'),
      ),
    );
  }
  return h(
    'div',
    { class: 'notice notice-error', role: 'alert' },
    h('p', {}, h('strong', {}, `${task.agentName}: `), task.said || 'the task ended without a word.'),
  );
}

/** A select among the agents that read a media type, or a sentence naming the only one. */
function agentChooser(candidates: readonly AgentView[], label: string): { element: HTMLElement; chosen: () => AgentView | undefined } {
  if (candidates.length === 1) {
    return { element: h('p', { class: 'route' }, `Goes to ${candidates[0]!.name ?? candidates[0]!.url}.`), chosen: () => candidates[0] };
  }
  const id = uniqueId('send-to');
  const select = h(
    'select',
    { id },
    candidates.map((agent) => h('option', { value: agent.id }, agent.name ?? agent.url)),
  );
  return {
    element: h('div', { class: 'field' }, h('label', { for: id }, label), select),
    chosen: () => candidates.find((agent) => agent.id === select.value),
  };
}

interface Picked {
  readonly file: File;
  readonly mediaType: string;
  readonly chosen: () => AgentView | undefined;
  readonly print: Promise<Fingerprint>;
  /** Ticked by the clerk to send a file again that was sent before. */
  again?: HTMLInputElement;
}

/** One picked file: its name, size and kind, the agent it goes to, and whether it was sent before. */
function pickedView(agents: readonly AgentView[], file: File, onReady: () => void): { element: HTMLElement; picked?: Picked } {
  const mediaType = mediaTypeOf(file.name) ?? file.type;
  const candidates = mediaType === '' ? [] : agentsAccepting(agents, mediaType);
  const head = h('p', {}, h('strong', {}, file.name), ` · ${size(file.size)} · ${kindOf(mediaType, file.name)}`);
  if (candidates.length === 0) {
    const readers = agents
      .map((agent) => `${agent.name ?? agent.url} reads ${agent.accepts.map((type) => kindOf(type)).join(', ') || 'nothing it says'}`)
      .join('; ');
    return {
      element: h(
        'li',
        { class: 'picked' },
        head,
        errorNotice(`No agent here reads ${mediaType ? `${kindOf(mediaType, file.name)} (${mediaType})` : 'this kind of file'}: ${readers}.`),
      ),
    };
  }
  const chooser = agentChooser(candidates, `Send ${file.name} to`);
  const warning = h('div', {});
  const picked: Picked = { file, mediaType, chosen: chooser.chosen, print: fingerprintOf(file, mediaType === 'message/rfc822') };
  void picked.print.then((print) => {
    const before = sentBefore(print);
    if (before) {
      const again = h('input', { type: 'checkbox', class: 'send-again' });
      again.addEventListener('change', onReady);
      picked.again = again;
      fill(
        warning,
        h(
          'div',
          { class: 'notice notice-warning duplicate', role: 'status' },
          h(
            'p',
            {},
            h('strong', {}, 'Sent before: '),
            `${before.same === 'message-id' ? 'a message with the same Message-ID' : 'the same file'} (${before.name}) went to ${before.agent} `,
            timeElement(before.at),
            '.',
          ),
          h('label', { class: 'choice' }, again, h('span', {}, 'Send it again anyway')),
        ),
      );
    }
    onReady();
  }, onReady);
  return { element: h('li', { class: 'picked' }, head, chooser.element, warning), picked };
}

function fileSection(agents: readonly AgentView[], result: HTMLElement): HTMLElement {
  const inputId = uniqueId('file');
  const accepted = [...new Set([...KNOWN_EXTENSIONS, ...agents.flatMap((agent) => agent.accepts)])].join(',');
  const input = h('input', { type: 'file', id: inputId, name: 'file', accept: accepted, multiple: true });
  const details = h('ul', { class: 'file-details plain', 'aria-live': 'polite' });
  const send = h('button', { type: 'submit', class: 'primary', disabled: true }, 'Send file');
  let picked: Picked[] = [];
  let sending = false;

  // Files sent before go only when the clerk ticks "send it again"; the button counts what will go.
  const sendable = () => picked.filter((item) => item.again === undefined || item.again.checked);
  const update = () => {
    const count = sendable().length;
    send.disabled = sending || count === 0;
    send.textContent = count > 1 ? `Send ${count} files` : 'Send file';
  };

  const pick = (files: readonly File[]) => {
    if (sending) return;
    const views = files.map((file) => pickedView(agents, file, update));
    picked = views.flatMap((view) => (view.picked ? [view.picked] : []));
    fill(
      details,
      views.map((view) => view.element),
    );
    update();
  };

  input.addEventListener('change', () => pick(Array.from(input.files ?? [])));
  const zone = h(
    'label',
    { class: 'drop-zone', for: inputId },
    h('span', { class: 'drop-title' }, 'Drop files here, or choose them'),
    h('span', { class: 'muted' }, 'Mail messages (.eml), or Excel or CSV sheets. Each goes to the agent whose card says it reads that kind of file.'),
  );
  zone.addEventListener('dragover', (event) => {
    event.preventDefault();
    zone.classList.add('dragging');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('dragging'));
  zone.addEventListener('drop', (event) => {
    event.preventDefault();
    zone.classList.remove('dragging');
    // The picker shows the dropped files too, so it never says "No file chosen" beside them.
    if (event.dataTransfer && event.dataTransfer.files.length > 0) {
      try {
        input.files = event.dataTransfer.files;
      } catch {
        // Older browsers cannot set a picker's files; the list below still shows them.
      }
      pick(Array.from(event.dataTransfer.files));
    }
  });

  const form = h('form', { class: 'card' }, h('h2', {}, 'Send files'), zone, input, details, h('div', { class: 'actions' }, send));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const going = sendable();
    if (sending || going.length === 0) return;
    sending = true;
    update();
    form.setAttribute('aria-busy', 'true');
    const outcomes = h('ul', { class: 'plain outcomes' });
    fill(result, outcomes);
    // One after another: each file is its own message, and each says which agent took it and what became of it.
    void (async () => {
      for (const item of going) {
        const agent = item.chosen();
        const line = h('li', {}, h('p', { class: 'muted' }, `Sending ${item.file.name} to ${agent?.name ?? 'no agent'}…`));
        outcomes.append(line);
        if (!agent) continue;
        try {
          const { task } = await postFile<{ task: TaskView }>(
            `/agents/${segment(agent.id)}/files?filename=${encodeURIComponent(item.file.name)}`,
            item.file,
            item.mediaType,
          );
          rememberSent(await item.print, item.file.name, agent.name ?? agent.url);
          fill(line, going.length > 1 && h('p', { class: 'file-name' }, h('strong', {}, item.file.name), ` → ${agent.name ?? agent.url}`), outcomeView(task));
        } catch (error) {
          fill(line, errorNotice(`${going.length > 1 ? `${item.file.name}: ` : ''}${error instanceof ApiFailure ? error.message : String(error)}`));
        }
      }
      // What was sent is no longer picked: a second click cannot send it again.
      sending = false;
      picked = [];
      input.value = '';
      details.replaceChildren();
      form.removeAttribute('aria-busy');
      update();
    })();
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
  const form = h(
    'form',
    { class: 'card' },
    h('h2', {}, 'Write a note'),
    h('div', { class: 'field' }, h('label', { for: id }, 'Text'), note),
    chooser.element,
    h('div', { class: 'actions' }, send),
  );
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
