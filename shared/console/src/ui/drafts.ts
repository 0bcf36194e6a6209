/// <reference lib="dom" />
// Half-done answers kept per task in this browser (localStorage), so a reload, Back and Forward,
// or a crash loses nothing. A draft holds what the form's controls hold, by control name, and
// nothing is sent anywhere until the clerk submits.

const PREFIX = 'learnables-draft:';
/** Drafts older than this are dropped when the console starts. */
const MAX_AGE_MS = 14 * 24 * 3_600_000;
/** At most this many drafts are kept; the oldest go first. */
const MAX_DRAFTS = 200;
/** A draft larger than this is not kept (a form holds a few short fields). */
const MAX_DRAFT_CHARS = 64_000;

export type DraftValue = string | boolean;
interface Stored {
  readonly at: number;
  readonly values: readonly (readonly [string, DraftValue])[];
}

export const draftKey = (agentId: string, taskId: string): string => `${PREFIX}${agentId}\u0000${taskId}`;

function storage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

function read(key: string): Stored | undefined {
  try {
    const raw = storage()?.getItem(key);
    if (!raw) return undefined;
    const parsed = JSON.parse(raw) as Partial<Stored>;
    if (typeof parsed.at !== 'number' || !Array.isArray(parsed.values)) return undefined;
    return {
      at: parsed.at,
      values: parsed.values.filter(
        (pair): pair is [string, DraftValue] =>
          Array.isArray(pair) && typeof pair[0] === 'string' && (typeof pair[1] === 'string' || typeof pair[1] === 'boolean'),
      ),
    };
  } catch {
    return undefined;
  }
}

/** What a form's named controls hold now: radios by their checked value, checkboxes as true or false. */
export function formValues(form: HTMLFormElement): [string, DraftValue][] {
  const values: [string, DraftValue][] = [];
  for (const control of Array.from(form.elements)) {
    if (!(control instanceof HTMLInputElement || control instanceof HTMLSelectElement || control instanceof HTMLTextAreaElement) || control.name === '')
      continue;
    if (control instanceof HTMLInputElement && control.type === 'radio') {
      if (control.checked) values.push([control.name, control.value]);
    } else if (control instanceof HTMLInputElement && control.type === 'checkbox') {
      values.push([control.name, control.checked]);
    } else if (!(control instanceof HTMLInputElement && ['file', 'search', 'submit', 'button'].includes(control.type))) {
      values.push([control.name, control.value]);
    }
  }
  return values;
}

/** Keep a draft; false when this browser will not keep it (storage off or full). */
export function saveDraft(key: string, values: readonly (readonly [string, DraftValue])[]): boolean {
  const store = storage();
  if (!store) return false;
  const text = JSON.stringify({ at: Date.now(), values } satisfies Stored);
  if (text.length > MAX_DRAFT_CHARS) return false;
  try {
    store.setItem(key, text);
    return true;
  } catch {
    return false;
  }
}

export const loadDraft = (key: string): readonly (readonly [string, DraftValue])[] | undefined => read(key)?.values;

export const hasDraft = (key: string): boolean => read(key) !== undefined;

export function dropDraft(key: string): void {
  try {
    storage()?.removeItem(key);
  } catch {
    // Nothing kept, nothing to drop.
  }
}

/** Put a draft back into a form: checkboxes and radios first (they may reveal fields), then the rest. */
export function restoreDraft(form: HTMLFormElement, values: readonly (readonly [string, DraftValue])[]): void {
  const controls = Array.from(form.elements).filter((control): control is HTMLInputElement => 'name' in control && (control as HTMLInputElement).name !== '');
  const toggles = controls.filter((control) => control.type === 'radio' || control.type === 'checkbox');
  for (const [name, value] of values) {
    for (const control of toggles) {
      if (control.name !== name) continue;
      const checked = control.type === 'checkbox' ? value === true : control.value === value;
      if (control.checked !== checked) {
        control.checked = checked;
        control.dispatchEvent(new Event('change', { bubbles: true }));
      }
    }
  }
  for (const [name, value] of values) {
    if (typeof value !== 'string') continue;
    const control = controls.find((candidate) => candidate.name === name && candidate.type !== 'radio' && candidate.type !== 'checkbox');
    if (control) control.value = value;
  }
}

/** Drop drafts past their age, and the oldest beyond the limit. */
export function pruneDrafts(): void {
  const store = storage();
  if (!store) return;
  const drafts: { key: string; at: number }[] = [];
  for (let index = 0; index < store.length; index++) {
    const key = store.key(index);
    if (key?.startsWith(PREFIX)) drafts.push({ key, at: read(key)?.at ?? 0 });
  }
  drafts.sort((a, b) => b.at - a.at);
  drafts.forEach((draft, index) => {
    if (index >= MAX_DRAFTS || Date.now() - draft.at > MAX_AGE_MS) dropDraft(draft.key);
  });
}
