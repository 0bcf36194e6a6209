/// <reference lib="dom" />
import type { CorrectionOutcome } from '@learnables/protocol';
import type { CorrectableFinding, CorrectionRequest, CorrectionsView, TaskView } from '../../api-types.ts';
import { ApiFailure, getJson, postJson, segment } from '../api.ts';
import type { AppContext } from '../app-context.ts';
import { fill, h, timeElement, uniqueId } from '../dom.ts';
import { entryHref } from '../routes.ts';
import { labelOf } from '../summary-items.ts';
import { errorNotice, warningNotice } from './notices.ts';
import { closesOnEscape } from './reason-form.ts';

/** The value a select uses for "none of these", which no entry key can be (keys never start with ':'). */
const NONE = ':none';

const named = (finding: CorrectableFinding | undefined, key: string | undefined): string =>
  key === undefined ? '' : (finding?.choices?.find((choice) => choice.key === key)?.label ?? key);

/** What a correction says, in words: "should have been Harbor Lane", "should have been nobody's". */
function shouldHaveBeen(correction: CorrectionOutcome, finding: CorrectableFinding | undefined): string {
  const back = correction.none ? correction.decided.none === true : correction.entry !== undefined && correction.entry === correction.decided.winner;
  if (back) return 'it was right as decided after all';
  return correction.none ? 'it should have been none of these' : `it should have been ${named(finding, correction.entry)}`;
}

function correctionsList(view: CorrectionsView, many: boolean): HTMLElement {
  if (view.corrections.length === 0) return h('p', { class: 'muted' }, 'Nobody has said this decision was wrong.');
  return h(
    'ol',
    { class: 'plain corrections-list' },
    view.corrections.map((correction) => {
      const finding = view.findings.find((candidate) => candidate.name === correction.finding);
      return h(
        'li',
        {},
        h('strong', {}, correction.correctedBy),
        ' said ',
        many && `the ${labelOf(correction.finding).toLowerCase()} was wrong: `,
        shouldHaveBeen(correction, finding),
        ' (',
        timeElement(correction.at),
        '). ',
        h('span', { class: 'wrap-anywhere' }, `“${correction.reason}”`),
      );
    }),
  );
}

/** The form: which finding (when several), what it should have been, and why. */
function correctionForm(
  ctx: AppContext,
  task: TaskView,
  view: CorrectionsView,
  close: () => void,
  done: (outcome: CorrectionOutcome) => Promise<void>,
): HTMLElement {
  const errors = h('div', { class: 'form-errors' });
  const findingId = uniqueId('correct-finding');
  const valueId = uniqueId('correct-value');
  const reasonId = uniqueId('correct-reason');
  const findingSelect = h(
    'select',
    { id: findingId, name: 'finding' },
    view.findings.map((finding) => h('option', { value: finding.name }, labelOf(finding.name))),
  );
  const valueSlot = h('div', { class: 'field' });
  let value: HTMLSelectElement | HTMLInputElement = h('input', { type: 'text' });
  const chosen = () => view.findings.find((finding) => finding.name === findingSelect.value) ?? view.findings[0];
  const drawValue = () => {
    const finding = chosen();
    if (finding?.choices) {
      value = h(
        'select',
        { id: valueId, name: 'entry', 'aria-required': 'true' },
        h('option', { value: '' }, 'Choose…'),
        finding.choices.filter((choice) => choice.key !== finding.winner).map((choice) => h('option', { value: choice.key }, choice.label)),
        view.admitsNone && finding.winner !== undefined && h('option', { value: NONE }, 'None of these'),
      );
    } else {
      value = h('input', { type: 'text', id: valueId, name: 'entry', 'aria-required': 'true', maxlength: 200, autocomplete: 'off' });
    }
    fill(valueSlot, h('label', { for: valueId }, 'What should it have been?'), value);
  };
  findingSelect.addEventListener('change', drawValue);
  drawValue();
  const reason = h('textarea', { id: reasonId, name: 'reason', rows: 2, 'aria-required': 'true', 'aria-describedby': `${reasonId}-help` });
  const confirm = h('button', { type: 'submit', class: 'danger' }, 'Record the correction');
  const form = h(
    'form',
    { class: 'correct-form' },
    errors,
    view.findings.length > 1 && h('div', { class: 'field' }, h('label', { for: findingId }, 'Which part was wrong?'), findingSelect),
    valueSlot,
    h('div', { class: 'field' }, h('label', { for: reasonId }, 'Why was it wrong?'), reason),
    h(
      'p',
      { class: 'help', id: `${reasonId}-help` },
      `Recorded with your name (${ctx.operator}) beside the task, and counted on the dashboard as a decision corrected later. The task keeps what it decided; nothing is taught. To have such messages decided right next time, teach a lesson or take back the one that decided it.`,
    ),
    h('div', { class: 'actions' }, confirm, h('button', { type: 'button', class: 'secondary', onclick: close }, 'Cancel')),
  );
  closesOnEscape(form, close);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    errors.replaceChildren();
    const finding = chosen();
    if (!finding) return;
    if (value.value.trim() === '') {
      errors.replaceChildren(errorNotice('Choose what it should have been.'));
      value.focus();
      return;
    }
    if (reason.value.trim() === '') {
      errors.replaceChildren(errorNotice('Say why it was wrong, so the next person can tell.'));
      reason.focus();
      return;
    }
    const request: CorrectionRequest =
      value.value === NONE ? { finding: finding.name, none: true, reason: reason.value } : { finding: finding.name, entry: value.value, reason: reason.value };
    confirm.disabled = true;
    postJson<CorrectionOutcome>(`/agents/${segment(task.agentId)}/tasks/${segment(task.taskId)}/corrections`, request)
      .then(done)
      .catch((error: unknown) => {
        confirm.disabled = false;
        errors.replaceChildren(errorNotice(error instanceof ApiFailure ? error.message : String(error)));
      });
  });
  return form;
}

/**
 * A decided task's corrections (SPEC §6.7): who said the decision was wrong, what it should have
 * been and why, and a form to say so. The task itself stays as it was decided.
 */
export async function correctionsSection(ctx: AppContext, task: TaskView, said?: string): Promise<HTMLElement | undefined> {
  if (task.state !== 'decided') return undefined;
  const view = await getJson<CorrectionsView>(`/agents/${segment(task.agentId)}/tasks/${segment(task.taskId)}/corrections`);
  const section = h('section', { class: 'card corrections', 'aria-labelledby': 'corrections-title' });
  const redraw = async (sentence: string) => {
    const fresh = await correctionsSection(ctx, task, sentence);
    if (fresh) section.replaceWith(fresh);
    fresh?.querySelector<HTMLElement>('.notice')?.focus();
  };
  const slot = h('div', { class: 'correct-slot' });
  const opener = h('button', { type: 'button', class: 'secondary' }, 'This decision was wrong…');
  const close = () => {
    fill(slot);
    opener.hidden = false;
    opener.focus();
  };
  opener.addEventListener('click', () => {
    opener.hidden = true;
    fill(
      slot,
      correctionForm(ctx, task, view, close, async (outcome) => {
        const finding = view.findings.find((candidate) => candidate.name === outcome.finding);
        await redraw(
          outcome.changed ? `Recorded: ${shouldHaveBeen(outcome, finding)}.` : `Already recorded: ${shouldHaveBeen(outcome, finding)}; nothing was added.`,
        );
      }),
    );
    slot.querySelector<HTMLElement>('select, input')?.focus();
  });
  const corrected = view.findings.flatMap((finding) => {
    const latest = view.corrections.filter((correction) => correction.finding === finding.name).at(-1);
    return latest && !latest.none && latest.entry !== undefined && finding.choices && latest.entry !== finding.winner ? [{ finding, entry: latest.entry }] : [];
  });
  fill(
    section,
    said !== undefined && h('p', { class: 'notice notice-success', role: 'status', tabindex: -1 }, said),
    h('h2', { id: 'corrections-title' }, 'Corrections'),
    view.problem !== undefined
      ? warningNotice(view.problem)
      : [
          correctionsList(view, view.findings.length > 1),
          corrected.length > 0 &&
            h(
              'p',
              { class: 'muted' },
              corrected.map(({ finding, entry }) => [h('a', { href: entryHref(finding.collection, entry) }, `What ${named(finding, entry)} is taught`), ' ']),
              '— teach it there, or take back what decided this.',
            ),
          view.findings.length > 0 && [opener, slot],
        ],
  );
  return section;
}
