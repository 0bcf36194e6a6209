import { z } from 'zod';
import type { LessonValue } from '@learnables/protocol';
import { UnlearnableValue } from './errors.ts';

/**
 * The schema of a lesson's value, as `lessonValue` makes it: a zod object that takes no other
 * keys, whose refusals are sentences the learnable wrote. `V` is the value `learn` receives.
 */
export type LessonValueSchema<V extends object = object> = z.ZodType<V> & { readonly shape: Readonly<Record<string, z.ZodType>> };

/** The value a schema reads: what `learn`, `unlearn` and a question's `suggested` are typed by. */
export type LessonValueOf<S extends z.ZodType> = z.output<S>;

/**
 * A value as a person typed it, for a refusal: JSON (so text is quoted), cut short so the
 * sentence stays readable. A value nested past what JSON.stringify can walk is "That value".
 */
export function shown(raw: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(raw) ?? String(raw);
  } catch {
    return 'That value';
  }
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A number as people write it: 32, "32", " 32.5 ", and with `unit` also "32 kg" or "32KG".
 * Undefined for anything else (words, "32,5", NaN, an array). A lesson field of kind `number`
 * reaches the learnable as the text a person typed (SPEC §1.7: clients render it as a text box).
 */
export function readNumber(raw: unknown, unit?: string): number | undefined {
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : undefined;
  if (typeof raw !== 'string') return undefined;
  const suffix = unit === undefined ? '' : `(?:\\s*${escapeRegExp(unit)})?`;
  const figures = new RegExp(`^(-?\\d+(?:\\.\\d+)?)${suffix}$`, 'i').exec(raw.trim())?.[1];
  return figures === undefined ? undefined : Number(figures);
}

const refuse = (ctx: { issues: { push(issue: object): unknown } }, message: string, input: unknown): never => {
  ctx.issues.push({ code: 'custom', message, input });
  return z.NEVER;
};

const isBlank = (raw: unknown) => raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '');

/**
 * Fields of a lesson's value, each with its refusals in the learnable's words. Each is a zod
 * schema: chain `.refine(check, { error })` for the learnable's own rules, which then run on the
 * read value (a number, trimmed text) and only when the field was read.
 */
export const lessonField = {
  /** Text, trimmed. Missing, blank or not text: refused with `missing`. */
  text(words: { readonly missing: string }) {
    return z.unknown().transform((raw, ctx): string => (typeof raw === 'string' && raw.trim() !== '' ? raw.trim() : refuse(ctx, words.missing, raw)));
  },

  /**
   * A number (lesson field kind `number`): a JSON number, or its text as a text box sends it —
   * with `unit`, "30 kg" too. Missing, null or blank: `missing`; anything else that is no number:
   * `notANumber(shown)`, with the value as typed (see `shown`).
   */
  number(words: { readonly missing: string; readonly notANumber: (shown: string) => string; readonly unit?: string }) {
    return z.unknown().transform((raw, ctx): number => {
      if (isBlank(raw)) return refuse(ctx, words.missing, raw);
      return readNumber(raw, words.unit) ?? refuse(ctx, words.notANumber(shown(raw)), raw);
    });
  },

  /**
   * One of `choices` (lesson field kind `choice`), matched after trimming and ignoring case, and
   * read as the choice itself. Absent: `absent` when given, else refused with `missing`.
   */
  choice<const C extends string>(choices: readonly C[], words: { readonly notOne: (shown: string) => string; readonly absent?: C; readonly missing?: string }) {
    const read = (raw: unknown, ctx: { issues: { push(issue: object): unknown } }): C => {
      if (raw === undefined && words.absent !== undefined) return words.absent;
      if (raw === undefined && words.missing !== undefined) return refuse(ctx, words.missing, raw);
      const said = typeof raw === 'string' ? raw.trim().toLowerCase() : undefined;
      return choices.find((choice) => choice.toLowerCase() === said) ?? refuse(ctx, words.notOne(shown(raw)), raw);
    };
    // With a default the key may be left out: zod must know it is optional to let it be absent.
    return words.absent === undefined ? z.unknown().transform(read) : z.unknown().optional().transform(read);
  },
};

/**
 * The schema of a lesson's value: these fields and no others. A key it does not take is refused
 * with `unknownKey(key)`, naming that key as the field. `check` holds the learnable's rules across
 * fields (a pattern and where it looks): it runs only once the whole value was read without a
 * problem, with the value read, and throws `UnlearnableValue` itself when it refuses.
 */
export function lessonValue<const Shape extends Record<string, z.ZodType>>(
  shape: Shape,
  words: { readonly unknownKey: (key: string) => string; readonly check?: (value: z.output<z.ZodObject<Shape, z.core.$strict>>) => void },
) {
  const value = z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? words.unknownKey(String(issue.keys[0])) : undefined),
  });
  const check = words.check;
  if (check === undefined) return value;
  // Not after a key it does not take either (zod would run it then): that refusal comes first.
  return value.refine(
    (read) => {
      check(read);
      return true;
    },
    { when: (payload) => payload.issues.length === 0 },
  );
}

/** For a check with no words of its own: the value as typed and the field it is about. */
function plainWords(issue: { readonly input?: unknown; readonly path?: readonly PropertyKey[] }): string {
  const field = issue.path?.[0];
  return field === undefined ? `${shown(issue.input)} is not a value this takes.` : `${shown(issue.input)} is not a usable ${String(field)}.`;
}

/**
 * Read a lesson's value with its schema, or throw `UnlearnableValue`: the sentence of the first
 * problem (a key it does not take before anything else, then the fields in order), naming the
 * field it is about. A check the learnable gave no words gets a plain sentence naming the field.
 */
export function readLessonValue<V extends object>(schema: z.ZodType<V>, value: LessonValue): V {
  const read = schema.safeParse(value, { error: plainWords });
  if (read.success) return read.data;
  const issues = read.error.issues;
  const first = issues.find((issue) => issue.code === 'unrecognized_keys') ?? issues[0];
  const field = first?.code === 'unrecognized_keys' ? first.keys[0] : first?.path[0];
  throw new UnlearnableValue(first?.message ?? 'That value cannot be used.', field === undefined ? {} : { field: String(field) });
}
