/** Every check the kit runs, in report order, with the SPEC.md section it enforces. */
export const SECTIONS = ['card', 'activation', 'question', 'reread', 'none', 'preview', 'entries', 'pinning', 'correction', 'retraction', 'refusals'] as const;
export type Section = (typeof SECTIONS)[number];

export const CHECKS = {
  'card.fetch': { spec: '§1.1', title: 'the agent card is served at /.well-known/agent-card.json' },
  'card.signature': { spec: 'A2A §8.4', title: 'every signature on the card verifies (when it carries any)' },
  'card.security': { spec: '§1.8', title: 'every security scheme a method names is one the card declares' },
  'card.interfaces': { spec: '§6.3', title: 'the card offers a v1.0 JSON-RPC interface' },
  'card.extension-once': { spec: '§1.1', title: 'the URI is declared exactly once in capabilities.extensions' },
  'card.required-false': { spec: '§1.2', title: 'the entry says required: false' },
  'card.declaration': { spec: '§1.3', title: 'params is a Declaration (zod schema and schemas/declaration.json)' },
  'card.how': { spec: '§1.3, §1.4', title: 'how is a non-empty sentence' },
  'card.decided-by': { spec: '§1.3, §1.5', title: 'decidedBy is rules, model or hybrid' },
  'card.lesson-fields': { spec: '§1.6', title: 'every lesson field has name, label and kind; a choice has choices' },
  'card.fields-to-render': { spec: '§1.7', title: 'fieldsToRender yields one control per field' },
  'card.methods': { spec: '§1.8, §6.3', title: 'methods names where reread (and teach) are served' },
  'activation.jsonrpc-send': { spec: '§7.1', title: 'SendMessage echoes the URI in A2A-Extensions' },
  'activation.jsonrpc-get': { spec: '§7.1', title: 'GetTask echoes the URI in A2A-Extensions' },
  'activation.rest-send': { spec: '§7.1', title: 'REST message:send echoes the URI in A2A-Extensions' },
  'activation.extension-method': { spec: '§6.3, §7.1', title: 'reread echoes the URI in A2A-Extensions' },
  'activation.not-required': { spec: '§1.2, §7.2', title: 'a request without A2A-Extensions still works' },
  'question.input-required': { spec: '§2.1', title: 'the input leaves a task in TASK_STATE_INPUT_REQUIRED' },
  'question.in-words': { spec: '§2.1', title: 'the status message asks in a text part' },
  'question.teach-block': { spec: '§2.2', title: 'metadata[URI] is a TeachBlock (zod schema and schemas/teach-block.json)' },
  'question.version': { spec: '§2.2, §4.4', title: 'the teach block carries the pinned version, a positive integer' },
  'question.collection': { spec: '§2.2', title: "the teach block's collection is the declared one" },
  'question.suggestion-accepted': { spec: '§2.4, §3.3', title: "the suggestion is accepted by the agent's own learnable" },
  'reread.readings': { spec: '§6.1', title: 'reread answers Readings, each with a version' },
  'reread.no-task': { spec: '§6.1', title: 'reread creates no task (ListTasks totalSize unchanged)' },
  'reread.task-untouched': { spec: '§6.1', title: 'the task reread is left as it was, still input-required' },
  'none.writes-nothing': { spec: '§2.6, §2.8', title: 'a "none of these" answer completes the task with no winner and writes nothing' },
  'preview.read-only': { spec: '§6.5', title: 'preview answers a PreviewResult and leaves no task, no version and no activation behind' },
  'preview.agrees': { spec: '§6.5, §6.1', title: 'once the previewed lesson is taught, reread reads the task as preview said it would' },
  'entries.add-idempotent': { spec: '§3.5', title: 'adding an entry publishes one version; adding it again changes nothing' },
  'pinning.new-version': { spec: '§3.3, §4.1', title: 'teaching publishes a new version' },
  'pinning.answer-completes': { spec: '§2.5', title: 'the answer on the same task id completes it' },
  'pinning.asked-version': { spec: '§4.4', title: 'the completed task reports the version it was asked at' },
  'pinning.reread-live': { spec: '§6.1, §4.4', title: 'reread reports the new live version' },
  'correction.keeps-task': {
    spec: '§6.7',
    title: 'correcting a completed task records who, why and what it should have been, and leaves the task as it was decided',
  },
  'correction.once': { spec: '§6.7', title: 'the same correction again records nothing' },
  'retraction.keeps-later': { spec: '§5.4', title: 'retracting an earlier activation publishes a version that keeps every later one' },
  'retraction.once': { spec: '§5.6', title: 'retracting the same version again changes nothing' },
  'refusals.teach-malformed': { spec: '§3.4', title: 'a malformed lesson is refused with a sentence and a Refusal' },
  'refusals.reread-no-params': { spec: '§3.4, §6.3', title: 'reread without params is refused with a sentence and a Refusal' },
} as const satisfies Record<string, { spec: string; title: string }>;

export type CheckId = keyof typeof CHECKS;
export type Status = 'PASS' | 'FAIL' | 'SKIP';

export interface CheckResult {
  readonly id: CheckId;
  readonly section: Section;
  readonly spec: string;
  readonly title: string;
  readonly status: Status;
  /** One sentence; a failure says what was expected and what came back. */
  readonly reason: string;
}

export const CHECK_IDS = Object.keys(CHECKS) as CheckId[];
export const sectionOf = (id: CheckId): Section => id.slice(0, id.indexOf('.')) as Section;

/** Collects verdicts; a check is decided once, and anything left undecided can be skipped in one go. */
export class Recorder {
  private readonly results = new Map<CheckId, CheckResult>();

  constructor(private readonly onCheck?: (result: CheckResult) => void) {}

  private record(id: CheckId, status: Status, reason: string): void {
    if (this.results.has(id)) return;
    const result: CheckResult = { id, section: sectionOf(id), spec: CHECKS[id].spec, title: CHECKS[id].title, status, reason: sentence(reason) };
    this.results.set(id, result);
    this.onCheck?.(result);
  }

  pass(id: CheckId, reason: string): void {
    this.record(id, 'PASS', reason);
  }

  fail(id: CheckId, reason: string): void {
    this.record(id, 'FAIL', reason);
  }

  skip(id: CheckId, reason: string): void {
    this.record(id, 'SKIP', reason);
  }

  /** Pass when `ok`, else fail; for checks whose two sentences are ready. */
  verdict(id: CheckId, ok: boolean, passReason: string, failReason: string): boolean {
    if (ok) this.pass(id, passReason);
    else this.fail(id, failReason);
    return ok;
  }

  decided(id: CheckId): boolean {
    return this.results.has(id);
  }

  /** Skip every check not yet decided in these sections (or all, with none given). */
  skipRest(reason: string, ...sections: Section[]): void {
    for (const id of CHECK_IDS) {
      if (sections.length === 0 || sections.includes(sectionOf(id))) this.skip(id, reason);
    }
  }

  /** Every check, in catalog order. */
  all(): CheckResult[] {
    return CHECK_IDS.map((id) => this.results.get(id)).filter((r): r is CheckResult => r !== undefined);
  }
}

/**
 * A reason reads as one sentence ending with a full stop. A leading plain word is capitalised;
 * a leading identifier (`capabilities.extensions`, `learnables/reread`) is left as written.
 */
function sentence(text: string): string {
  const trimmed = text.trim().replace(/\s+/g, ' ');
  const capital = /^[a-z]+(\s|,|$)/.test(trimmed) ? trimmed.charAt(0).toUpperCase() + trimmed.slice(1) : trimmed;
  return /[.!?…]["'”)\]]?$/.test(capital) ? capital : `${capital}.`;
}
