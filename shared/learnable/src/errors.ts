/**
 * Every reason a lesson is not taken. `code` is for programs (and maps to the wire's refusal
 * code); `message` is a sentence for the person who typed the value, and nobody rewrites it.
 */
export abstract class LessonRefused extends Error {
  abstract readonly code: 'unlearnable' | 'malformed' | 'unknown-collection' | 'unknown-entry' | 'entry-exists' | 'not-retractable';
}

/** The learnable cannot use the value. The message is the learnable's own, word for word. */
export class UnlearnableValue extends LessonRefused {
  readonly code = 'unlearnable' as const;
  override readonly name = 'UnlearnableValue';
  /** The lesson field the refusal is about, when the learnable can tell; clients show it there. */
  readonly field: string | undefined;
  constructor(message: string, options: { field?: string } = {}) {
    super(message);
    this.field = options.field;
  }
}

/** The lesson itself is not well-formed (missing author, value not an object, …). */
export class MalformedLesson extends LessonRefused {
  readonly code = 'malformed' as const;
  override readonly name = 'MalformedLesson';
}

const listed = (keys: readonly string[], limit = 12): string =>
  keys.length === 0 ? 'there are none' : keys.length <= limit ? keys.join(', ') : `${keys.slice(0, limit).join(', ')} and ${keys.length - limit} more`;

export class UnknownCollection extends LessonRefused {
  readonly code = 'unknown-collection' as const;
  override readonly name = 'UnknownCollection';
  constructor(
    readonly collection: string,
    readonly known: readonly string[],
  ) {
    super(`There is no collection called "${collection}"; the collections are: ${listed(known)}.`);
  }
}

export class UnknownEntry extends LessonRefused {
  readonly code = 'unknown-entry' as const;
  override readonly name = 'UnknownEntry';
  constructor(
    readonly collection: string,
    readonly entry: string,
    readonly known: readonly string[],
  ) {
    super(`"${entry}" is not in ${collection}; the entries are: ${listed(known)}.`);
  }
}

/** A new entry whose key is taken by an entry of another label. */
export class EntryExists extends LessonRefused {
  readonly code = 'entry-exists' as const;
  override readonly name = 'EntryExists';
  constructor(
    readonly collection: string,
    readonly entry: string,
    readonly existingLabel: string,
    readonly label: string,
  ) {
    super(`${collection} already has "${entry}", called "${existingLabel}"; give "${label}" another key, or use the existing entry.`);
  }
}

/** A retraction the authority cannot make (a seed, a rollback, an added entry that has lessons, …). */
export class NotRetractable extends LessonRefused {
  readonly code = 'not-retractable' as const;
  override readonly name = 'NotRetractable';
}
