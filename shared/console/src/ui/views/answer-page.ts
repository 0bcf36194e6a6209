/// <reference lib="dom" />
import type { AgentView, AnswerRequest, AnswerResponse, PreviewView, ShowBack, TaskView } from '../../api-types.ts';
import { ApiFailure, getJson, postJson, segment } from '../api.ts';
import type { AppContext } from '../app-context.ts';
import { fill, h, timeElement, uniqueId } from '../dom.ts';
import { lessonPromise } from '../honesty.ts';
import { labelOf } from '../summary-items.ts';
import { lessonFields } from './lesson-fields.ts';
import type { LessonFields } from './lesson-fields.ts';
import { draftKey, dropDraft, formValues, loadDraft, restoreDraft, saveDraft } from '../drafts.ts';
import { errorNotice } from './notices.ts';
import { previewView } from './preview-view.ts';
import { showBackView } from './show-back.ts';
import { summaryView } from './summary-view.ts';
import { taskDetails } from './task-page.ts';
import { taskHref } from '../routes.ts';

/**
 * Everything the agent reads in the message now, field by field in its own words, when it decides
 * several: the clerk answering about one field sees what became of all the others (for a sheet, the
 * column each field was read from). Nothing is shown when the agent offers no reread or reads one thing.
 */
function readingsPanel(task: TaskView): HTMLElement {
  const box = h('div', { class: 'current-readings' });
  getJson<ShowBack>(`/agents/${segment(task.agentId)}/tasks/${segment(task.taskId)}/readings`)
    .then((showBack) => {
      const readings = Object.entries(showBack.readings ?? {});
      if (readings.length < 2) return;
      fill(
        box,
        h('h3', { id: 'readings-title' }, 'What it reads now'),
        h(
          'ul',
          { class: 'readings', 'aria-labelledby': 'readings-title' },
          readings.map(([name, reading]) =>
            h(
              'li',
              { class: reading.settled ? 'reading settled' : 'reading unsettled' },
              h('span', { class: 'reading-name' }, labelOf(name)),
              h('p', { class: 'reads' }, reading.reads),
              !reading.settled && h('span', { class: 'muted' }, 'Not decided yet'),
            ),
          ),
        ),
      );
    })
    .catch(() => undefined);
  return box;
}

function aboutPanel(task: TaskView): HTMLElement {
  const summary = summaryView(task.summary);
  return h(
    'section',
    { class: 'card about', 'aria-labelledby': 'about-title' },
    h('h2', { id: 'about-title' }, 'What it is about'),
    summary ?? h('p', { class: 'muted' }, 'The agent gave no summary of this message.'),
    task.state === 'asking' && readingsPanel(task),
  );
}

/** The question, its answers, and — when the card declares the extension — "remember this". */
/** Forms holding a half-done answer; leaving the console while one is on screen asks first. */
const unsaved = new Set<HTMLFormElement>();
window.addEventListener('beforeunload', (event) => {
  for (const form of unsaved) {
    if (!form.isConnected) unsaved.delete(form);
  }
  if (unsaved.size > 0) event.preventDefault();
});

/** Past this many answers, a field to find one by typing stands above them. */
const FIND_FROM = 6;

/**
 * Type-to-find over the answers: typing hides those that do not match (by label or key, any
 * case, every word), Enter picks the first that does. Nothing is sent until the clerk submits.
 */
function entryFinder(entries: readonly { key: string; label: string }[], choices: readonly HTMLLabelElement[]): HTMLElement | undefined {
  if (entries.length < FIND_FROM) return undefined;
  const id = uniqueId('entry-find');
  const count = h('p', { class: 'help', id: `${id}-count`, 'aria-live': 'polite' });
  const input = h('input', {
    type: 'search',
    id,
    autocomplete: 'off',
    'data-find': true,
    'aria-keyshortcuts': '/',
    'aria-describedby': `${id}-help ${id}-count`,
  });
  const matching = () => choices.filter((choice) => !choice.hidden);
  input.addEventListener('input', () => {
    const words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    entries.forEach((entry, index) => {
      const text = `${entry.label} ${entry.key}`.toLowerCase();
      choices[index]!.hidden = !words.every((word) => text.includes(word));
    });
    const shown = matching().length;
    count.textContent = words.length === 0 ? '' : shown === 0 ? 'No answer matches.' : `${shown} of ${entries.length} match.`;
  });
  input.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' || event.ctrlKey || event.metaKey) return;
    // Enter picks here; it does not send the form.
    event.preventDefault();
    const first = matching()[0]?.querySelector('input');
    if (first) {
      first.checked = true;
      first.dispatchEvent(new Event('change', { bubbles: true }));
      first.focus();
    }
  });
  return h(
    'div',
    { class: 'field entry-find' },
    h('label', { for: id }, 'Find an answer'),
    input,
    h('p', { class: 'help', id: `${id}-help` }, `Type part of a name; Enter picks the first match. ${entries.length} answers.`),
    count,
  );
}

interface AnswerForm {
  readonly form: HTMLFormElement;
  /** True from the moment this form sends its answer: the question leaving the list is then no surprise. */
  sent(): boolean;
  /** Someone answered elsewhere: say so, and take no answer from this form. */
  closeAsAnswered(ended: TaskView): void;
}

function answerForm(main: HTMLElement, ctx: AppContext, agent: AgentView | undefined, task: TaskView): AnswerForm {
  const teach = task.teach;
  const learnable = agent?.learnable;
  const topErrors = h('div', { class: 'form-errors' });
  const entryErrorId = uniqueId('entry-error');
  const entryError = h('p', { class: 'field-error', id: entryErrorId, hidden: true });

  const entries = teach?.entries ?? [];
  const freeAnswer =
    entries.length === 0
      ? h('input', { type: 'text', id: 'answer-text', name: 'answer-text', autocomplete: 'off', 'aria-describedby': entryErrorId })
      : undefined;
  const choices = entries.map((entry, index) =>
    h(
      'label',
      { class: 'choice' },
      h('input', {
        type: 'radio',
        name: 'answer-entry',
        value: entry.key,
        'aria-describedby': entryErrorId,
        ...(index < 9 && { 'aria-keyshortcuts': String(index + 1) }),
      }),
      h('span', {}, entry.label),
      entry.since && h('span', { class: 'muted' }, ' (added since this message arrived)'),
    ),
  );
  // Beyond the question's entries, the card may allow two more answers (SPEC §2.6–2.8, §3.5).
  const entryWord = learnable?.entry || 'entry';
  const special = (answer: 'none' | 'new', words: string) =>
    h(
      'label',
      { class: 'choice special' },
      h('input', { type: 'radio', name: 'answer-entry', value: `:${answer}`, 'data-answer': answer, 'aria-describedby': entryErrorId }),
      h('span', {}, words),
    );
  const noneChoice = teach && learnable?.admitsNone && entries.length > 0 ? special('none', 'None of these') : undefined;
  const newNameId = uniqueId('new-entry');
  const newName = h('input', { type: 'text', id: newNameId, name: 'new-entry-label', autocomplete: 'off', maxlength: 120, 'aria-describedby': entryErrorId });
  const newNameField = h('div', { class: 'field new-entry-name', hidden: true }, h('label', { for: newNameId }, `Name of the new ${entryWord}`), newName);
  const newChoice = teach && learnable?.addsEntries && teach.entry === undefined && entries.length > 0 ? special('new', `A new ${entryWord}…`) : undefined;
  const answerChoices = h(
    'fieldset',
    { class: 'entries' },
    h('legend', {}, 'Answer'),
    freeAnswer
      ? [h('label', { for: 'answer-text' }, 'Your answer'), freeAnswer]
      : [entryFinder(entries, choices), h('div', { class: 'choices' }, choices, noneChoice, newChoice, newChoice && newNameField)],
    entryError,
  );

  let lesson: LessonFields | undefined;
  let remember: HTMLInputElement | undefined;
  let rememberSection: HTMLElement | undefined;
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Answer');
  const previewBox = h('div', { class: 'preview-box', 'aria-live': 'polite' });
  if (learnable && teach) {
    lesson = lessonFields(learnable, teach);
    const lessonBox = h(
      'div',
      { class: 'remember-body', hidden: true },
      h('p', { class: 'honesty' }, lessonPromise(learnable.decidedBy)),
      // A paragraph, not a disclosure: a clerk answering by keyboard tabs through nothing she does not change.
      learnable.how !== '' && h('p', { class: 'how' }, h('span', { class: 'muted' }, 'How it decides today: '), learnable.how),
      h(
        'p',
        { class: 'entry-note' },
        teach.entry !== undefined
          ? `The lesson teaches ${labelOf(learnable.entry || 'entry').toLowerCase()} “${entries.find((entry) => entry.key === teach.entry)?.label ?? teach.entry}”.`
          : `The lesson goes to the ${learnable.entry || 'entry'} you choose as the answer.`,
      ),
      lesson.element,
      learnable.previewMethod !== undefined &&
        h('p', { class: 'help' }, `Before the lesson is kept, you will see what it would do to the messages ${agent?.name ?? 'the agent'} received lately.`),
      previewBox,
    );
    const toggle = h('input', { type: 'checkbox', id: 'remember', name: 'remember' });
    toggle.addEventListener('change', () => {
      lessonBox.hidden = !toggle.checked;
      lesson?.setRequired(toggle.checked);
      submit.textContent = submitWords();
    });
    remember = toggle;
    rememberSection = h(
      'fieldset',
      { class: 'remember' },
      h('legend', {}, 'For next time'),
      h(
        'label',
        { class: 'choice', for: 'remember' },
        toggle,
        h('span', {}, h('strong', {}, 'Remember this'), ` and teach ${agent?.name ?? 'the agent'} ${learnable.teaches || 'this answer'}`),
      ),
      lessonBox,
    );
  }

  let sending = false;
  let closed = false;
  const draftStatus = h('span', { class: 'muted draft-status', 'aria-live': 'polite' });
  const form = h(
    'form',
    { class: 'card answer-form' },
    topErrors,
    answerChoices,
    rememberSection,
    h('div', { class: 'actions' }, submit, h('a', { href: '#/', class: 'button-link' }, 'Back to questions'), draftStatus),
  );

  const chosen = () => form.querySelector<HTMLInputElement>('input[name="answer-entry"]:checked');
  const answerKind = (): 'entry' | 'none' | 'new' => {
    const kind = chosen()?.dataset.answer;
    return kind === 'none' || kind === 'new' ? kind : 'entry';
  };
  // The preview shown, and for which answer and lesson: any change makes it stale.
  let previewedFor: string | undefined;
  const lessonState = () => JSON.stringify({ entry: chosen()?.value ?? '', value: lesson?.values() ?? {} });
  const wantsPreview = () => Boolean(remember?.checked && learnable?.previewMethod && answerKind() === 'entry');
  function submitWords(): string {
    if (answerKind() === 'none') return 'Answer: none of these';
    if (!remember?.checked) return answerKind() === 'new' ? `Add the ${entryWord} and answer` : 'Answer';
    if (wantsPreview() && previewedFor !== lessonState()) return 'Check what this lesson would do';
    return answerKind() === 'new' ? `Add the ${entryWord}, answer and remember` : 'Confirm: answer and remember';
  }
  const onAnswerChange = () => {
    newNameField.hidden = answerKind() !== 'new';
    // "None of these" teaches nothing: the lesson is set aside while it is chosen.
    if (rememberSection) rememberSection.hidden = answerKind() === 'none';
    if (previewedFor !== undefined && previewedFor !== lessonState()) {
      previewedFor = undefined;
      previewBox.replaceChildren();
    }
    submit.textContent = submitWords();
  };
  form.addEventListener('change', onAnswerChange);
  form.addEventListener('input', onAnswerChange);

  // The draft: what the clerk has chosen and typed, kept per task in this browser on every change.
  const key = draftKey(task.agentId, task.taskId);
  const pristine = JSON.stringify(formValues(form));
  const kept = loadDraft(key);
  if (kept) {
    restoreDraft(form, kept);
    // A draft that changed the suggestion shows the fields it changed, not the suggestion's words.
    if (lesson?.changed()) lesson.reveal();
    draftStatus.textContent = 'Your draft was kept from last time.';
    onAnswerChange();
  }
  const keepDraft = () => {
    if (closed || sending) return;
    const values = formValues(form);
    if (JSON.stringify(values) === pristine) {
      dropDraft(key);
      draftStatus.textContent = '';
      unsaved.delete(form);
      return;
    }
    const saved = saveDraft(key, values);
    draftStatus.textContent = saved ? 'Draft kept in this browser.' : 'This browser does not keep drafts; answer before you leave.';
    unsaved.add(form);
  };
  form.addEventListener('input', keepDraft);
  form.addEventListener('change', keepDraft);

  const clearErrors = () => {
    topErrors.replaceChildren();
    entryError.hidden = true;
    lesson?.clearErrors();
  };
  const showEntryError = (message: string) => {
    entryError.textContent = message;
    entryError.hidden = false;
    (answerKind() === 'new' ? newName : form.querySelector<HTMLInputElement>('input[name="answer-entry"], #answer-text'))?.focus();
  };

  const showFailure = (error: unknown) => {
    const failure = error instanceof ApiFailure ? error.body : { error: 'internal', message: String(error) };
    if (failure.field === 'entry' || failure.field === 'new-entry') showEntryError(failure.message);
    else if (!lesson?.showError(failure.field, failure.message)) {
      topErrors.replaceChildren(errorNotice(failure.message));
      topErrors.scrollIntoView({ block: 'nearest' });
    }
  };
  /** Ask the agent what the lesson would do; the clerk confirms with a second press, or changes it. */
  let previewing = false;
  const showPreview = (entry: string) => {
    const asked = lessonState();
    // The button stays enabled (disabling it would drop the keyboard's focus): a press while the
    // preview is on its way does nothing, and the next press after it confirms.
    previewing = true;
    submit.setAttribute('aria-disabled', 'true');
    previewBox.replaceChildren(h('p', { class: 'muted' }, 'Trying the lesson on recent messages…'));
    void postJson<PreviewView>(`/agents/${segment(task.agentId)}/tasks/${segment(task.taskId)}/preview`, {
      entry,
      value: lesson?.values() ?? {},
      reason: lesson?.reason() ?? '',
    })
      .then((answer) => {
        if (closed || asked !== lessonState()) return;
        if (answer.refusal) {
          previewBox.replaceChildren();
          showFailure(new ApiFailure(400, answer.refusal));
          return;
        }
        previewedFor = asked;
        previewBox.replaceChildren(
          answer.preview
            ? previewView(answer.preview, {
                agentId: task.agentId,
                agentName: agent?.name ?? task.agentName,
                entryWord,
                labelOf: (key) => entries.find((candidate) => candidate.key === key)?.label ?? key,
              })
            : h('p', { class: 'notice notice-info', role: 'status' }, answer.problem ?? 'Nothing could be previewed.'),
        );
      })
      .catch(showFailure)
      .finally(() => {
        previewing = false;
        submit.removeAttribute('aria-disabled');
        if (closed) return;
        submit.textContent = submitWords();
      });
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (closed || previewing) return;
    clearErrors();
    const kind = answerKind();
    const entry = freeAnswer ? freeAnswer.value.trim() : kind === 'entry' ? (chosen()?.value ?? '') : '';
    if (kind === 'entry' && entry === '') {
      showEntryError('Choose an answer first.');
      return;
    }
    const label = newName.value.trim();
    if (kind === 'new' && label === '') {
      showEntryError(`Name the new ${entryWord} first.`);
      newName.focus();
      return;
    }
    const taught = kind !== 'none' && remember?.checked && lesson ? { lesson: { value: lesson.values(), reason: lesson.reason() } } : {};
    const request: AnswerRequest = kind === 'none' ? { none: true } : kind === 'new' ? { newEntry: { label }, ...taught } : { entry, ...taught };
    if (wantsPreview() && previewedFor !== lessonState()) {
      showPreview(entry);
      return;
    }
    submit.disabled = true;
    sending = true;
    form.setAttribute('aria-busy', 'true');
    void postJson<AnswerResponse>(`/agents/${segment(task.agentId)}/tasks/${segment(task.taskId)}/answer`, request)
      .then((result) => {
        dropDraft(key);
        unsaved.delete(form);
        const answered = result.added?.entry ?? entry;
        const label = request.none ? 'None of these' : request.newEntry?.label;
        showBackView(main, ctx, {
          agent,
          question: task,
          entry: answered,
          result,
          ...(label !== undefined && { label }),
          ...(request.lesson && { lastValues: request.lesson.value }),
        });
      })
      .catch((error: unknown) => {
        sending = false;
        if (closed) return;
        submit.disabled = false;
        form.removeAttribute('aria-busy');
        showFailure(error);
      });
  });
  return {
    form,
    sent: () => sending,
    closeAsAnswered(ended) {
      if (closed) return;
      closed = true;
      dropDraft(key);
      unsaved.delete(form);
      for (const control of Array.from(form.elements)) (control as HTMLInputElement).disabled = true;
      const by = ended.answeredBy ? ` by ${ended.answeredBy}` : '';
      topErrors.replaceChildren(
        h(
          'div',
          { class: 'notice notice-warning answered-elsewhere', role: 'alert' },
          h('p', {}, h('strong', {}, `Answered elsewhere${by}. `), 'This form no longer takes an answer; nothing you chose here was sent.'),
          ended.said !== '' && h('p', {}, `${ended.agentName}: ${ended.said}`),
          h('p', {}, h('a', { href: taskHref(ended.agentId, ended.taskId) }, 'See how it ended'), ' · ', h('a', { href: '#/' }, 'Back to questions')),
        ),
      );
    },
  };
}

export async function answerPage(main: HTMLElement, ctx: AppContext, agentId: string, taskId: string): Promise<void> {
  const [task, agents] = await Promise.all([getJson<TaskView>(`/agents/${segment(agentId)}/tasks/${segment(taskId)}`), ctx.agents()]);
  const agent = agents.find((candidate) => candidate.id === agentId);
  if (task.state !== 'asking') {
    fill(
      main,
      h('h1', { tabindex: -1 }, 'Already answered'),
      h('p', { class: 'lead' }, 'This question is no longer waiting. Here is how the task ended.'),
      taskDetails(task),
    );
    return;
  }
  const form = answerForm(main, ctx, agent, task);
  fill(
    main,
    h('p', { class: 'eyebrow' }, `${task.agentName} asks`, ' · ', timeElement(task.at, 'waited')),
    h('h1', { tabindex: -1, class: 'question-title' }, task.said || task.teach?.question || 'The agent needs an answer.'),
    h('div', { class: 'answer-layout' }, aboutPanel(task), form.form),
  );
  // Another tab (or another clerk) may answer first: when the question leaves the waiting list,
  // ask the agent how the task stands, and close this form if it no longer waits.
  let checking = false;
  ctx.watchQuestions((snapshot) => {
    const waiting = snapshot.questions.some((candidate) => candidate.agentId === agentId && candidate.taskId === taskId);
    const unknown = snapshot.problems.some((problem) => problem.agentId === agentId);
    if (waiting || unknown || checking || form.sent()) return;
    checking = true;
    void getJson<TaskView>(`/agents/${segment(agentId)}/tasks/${segment(taskId)}`)
      .then((now) => {
        if (now.state !== 'asking' && !form.sent()) form.closeAsAnswered(now);
      })
      .catch(() => undefined)
      .finally(() => (checking = false));
  });
}
