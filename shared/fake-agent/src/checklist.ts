// The client-side checklist, as code: what a client did to the fake agent, judged item by item.
// Pure functions of the recorded calls, so they can be read (and tested) without a server.

/** One call a client made, in the order it arrived. */
export type ClientCall =
  | { readonly seq: number; readonly at: string; readonly kind: 'card'; readonly activated: boolean }
  | {
      readonly seq: number;
      readonly at: string;
      readonly kind: 'send';
      readonly activated: boolean;
      readonly via: string;
      readonly taskId?: string;
      readonly answer?: unknown;
    }
  | { readonly seq: number; readonly at: string; readonly kind: 'reread'; readonly activated: boolean; readonly via: string }
  | { readonly seq: number; readonly at: string; readonly kind: 'lesson'; readonly activated: boolean; readonly via: string; readonly lesson: unknown }
  | { readonly seq: number; readonly at: string; readonly kind: 'other'; readonly activated: boolean; readonly via: string };

export type ItemStatus = 'PASS' | 'FAIL' | 'PENDING';

export interface ChecklistItem {
  readonly id: 'activated' | 'answered-on-task' | 'rendered-unknown-kind' | 'value-untouched' | 'reread-after-teach';
  readonly spec: string;
  readonly status: ItemStatus;
  /** One sentence. */
  readonly reason: string;
}

export interface Checklist {
  /** True when every item passed. */
  readonly ok: boolean;
  readonly items: readonly ChecklistItem[];
  readonly calls: readonly ClientCall[];
}

export interface ChecklistFacts {
  /** The declared lesson field names, in order. */
  readonly fieldNames: readonly string[];
  /** The field whose kind no client knows. */
  readonly unknownField: { readonly name: string; readonly kind: string };
  /** Every suggestion the agent has made, as it sent them. */
  readonly suggestions: readonly Record<string, unknown>[];
  /** The ids of the tasks that asked. */
  readonly askedTasks: ReadonlySet<string>;
}

/** Canonical JSON (sorted keys), so two values compare by content. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

const lessonValueOf = (lesson: unknown): unknown => (typeof lesson === 'object' && lesson !== null ? (lesson as { value?: unknown }).value : undefined);
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export function evaluateChecklist(calls: readonly ClientCall[], facts: ChecklistFacts): Checklist {
  const sends = calls.filter((c) => c.kind === 'send');
  const lessons = calls.filter((c): c is Extract<ClientCall, { kind: 'lesson' }> => c.kind === 'lesson');
  const rereads = calls.filter((c) => c.kind === 'reread');
  const items: ChecklistItem[] = [];
  const { name: unknownName, kind: unknownKind } = facts.unknownField;

  // 1. Activation (§7.1): every message the client sent listed the URI in A2A-Extensions.
  const plain = sends.filter((c) => !c.activated);
  items.push({
    id: 'activated',
    spec: '§7.1',
    ...(sends.length === 0
      ? { status: 'PENDING', reason: 'No message has arrived yet.' }
      : plain.length === 0
        ? { status: 'PASS', reason: `All ${sends.length} message${sends.length === 1 ? '' : 's'} listed the extension in A2A-Extensions.` }
        : {
            status: 'FAIL',
            reason: `${plain.length} of ${sends.length} messages did not list the extension in A2A-Extensions, so the client never activated it there.`,
          }),
  });

  // 2. The answer goes back on the same task (§2.5).
  const answers = sends.filter(
    (c): c is Extract<ClientCall, { kind: 'send' }> => c.kind === 'send' && c.taskId !== undefined && facts.askedTasks.has(c.taskId),
  );
  items.push({
    id: 'answered-on-task',
    spec: '§2.5',
    ...(answers.length > 0
      ? { status: 'PASS', reason: `The question was answered with a follow-up message on task ${answers[0]!.taskId}.` }
      : facts.askedTasks.size === 0
        ? { status: 'PENDING', reason: 'The agent has not asked anything yet.' }
        : { status: 'PENDING', reason: 'The agent asked, and no follow-up message on that task has arrived yet.' }),
  });

  // 3. The client rule (§1.7): a field of a kind nobody knows is rendered, so its key arrives with a value.
  const skipped = lessons.filter((c) => {
    const value = lessonValueOf(c.lesson);
    return !(isRecord(value) && Object.hasOwn(value, unknownName) && value[unknownName] !== undefined && value[unknownName] !== null);
  });
  items.push({
    id: 'rendered-unknown-kind',
    spec: '§1.7',
    ...(lessons.length === 0
      ? { status: 'PENDING', reason: 'No lesson has arrived yet.' }
      : skipped.length === 0
        ? { status: 'PASS', reason: `Every lesson carried '${unknownName}' (kind '${unknownKind}', which no client knows), so the client rendered it.` }
        : {
            status: 'FAIL',
            reason: `${skipped.length} of ${lessons.length} lessons had no '${unknownName}': the client skipped the field of kind '${unknownKind}' instead of rendering it as a text input.`,
          }),
  });

  // 4. The value is passed through as the form made it (§3.2): the suggestion untouched, or exactly the declared fields as text.
  const suggestions = new Set(facts.suggestions.map(canonical));
  const expected = [...facts.fieldNames].sort().join(',');
  const judged = lessons.map((c) => {
    const value = lessonValueOf(c.lesson);
    if (suggestions.has(canonical(value))) return { untouched: true, problem: undefined };
    if (!isRecord(value)) return { untouched: false, problem: `a value that is not an object (${canonical(value)})` };
    const keys = Object.keys(value).sort().join(',');
    if (keys !== expected) return { untouched: false, problem: `a value with keys {${keys}} where the declared fields are {${expected}}` };
    const notText = Object.entries(value).filter(([, v]) => typeof v !== 'string');
    if (notText.length > 0)
      return { untouched: false, problem: `a value whose ${notText.map(([k]) => k).join(', ')} ${notText.length === 1 ? 'is' : 'are'} not text` };
    return { untouched: false, problem: undefined };
  });
  const bad = judged.filter((j) => j.problem !== undefined);
  const edited = judged.filter((j) => !j.untouched && j.problem === undefined).length;
  items.push({
    id: 'value-untouched',
    spec: '§3.2',
    ...(lessons.length === 0
      ? { status: 'PENDING', reason: 'No lesson has arrived yet.' }
      : bad.length === 0
        ? {
            status: 'PASS',
            reason:
              edited === 0
                ? `Every lesson's value was the agent's suggestion, untouched.`
                : `Every lesson's value was the suggestion untouched or, where a person edited it (${edited}), exactly the declared fields as text.`,
          }
        : {
            status: 'FAIL',
            reason: `A lesson arrived with ${bad[0]!.problem}; the value must be the form's fields as typed, nothing added, dropped or converted.`,
          }),
  });

  // 5. Show-back (§6.1): after teaching, the client reads the input again to show what changed.
  const lastLesson = lessons.at(-1);
  const after = lastLesson ? rereads.filter((c) => c.seq > lastLesson.seq) : [];
  items.push({
    id: 'reread-after-teach',
    spec: '§6.1',
    ...(lastLesson === undefined
      ? { status: 'PENDING', reason: 'No lesson has arrived yet.' }
      : after.length > 0
        ? { status: 'PASS', reason: `The client called reread after teaching (call ${after[0]!.seq}, after the lesson at call ${lastLesson.seq}).` }
        : {
            status: 'PENDING',
            reason:
              rereads.length > 0
                ? `The client has called reread only before its last lesson (call ${lastLesson.seq}), not yet after it, so it has not shown what the lesson changed.`
                : `A lesson arrived (call ${lastLesson.seq}) and no reread has followed it yet.`,
          }),
  });

  return { ok: items.every((i) => i.status === 'PASS'), items, calls };
}

export function formatChecklist(checklist: Checklist): string {
  const width = Math.max(...checklist.items.map((i) => i.id.length));
  const lines = ['learnables fake agent: client checklist', ''];
  for (const item of checklist.items) lines.push(`  ${item.status.padEnd(7)}  ${item.id.padEnd(width)}  ${item.reason} [${item.spec}]`);
  const count = (status: ItemStatus) => checklist.items.filter((i) => i.status === status).length;
  lines.push(
    '',
    `${checklist.items.length} items: ${count('PASS')} passed, ${count('FAIL')} failed, ${count('PENDING')} pending; ${checklist.calls.length} calls recorded.`,
  );
  lines.push(checklist.ok ? 'PASS: the client did everything on the list.' : 'Not yet PASS: see the items above.');
  return `${lines.join('\n')}\n`;
}
