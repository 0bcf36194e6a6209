import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import RE2 from 're2';
import type { Definition } from '@learnables/learnable';
import { backgroundTurn } from '@learnables/runtime';
import { compileMark, compileSender } from './customer-marks.ts';
import type { CustomerMarks, Mark } from './customer-marks.ts';
import { referencePattern } from './mark-patterns.ts';
import { MESSAGE_FIELDS } from './message-fields.ts';
import type { MessageField, MessageFields } from './message-fields.ts';

/** One mark that matched: whose it is, where it matched first, and the text it matched there. */
export interface MarkHit {
  readonly customer: string;
  readonly mark: Mark;
  readonly field: MessageField;
  readonly text: string;
}

export interface Score {
  readonly customer: string;
  readonly points: number;
}

/**
 * What the marks say about one message. `unmarked`: no mark matched. `close`: no customer leads
 * the next by the margin; `contenders` are those within the margin of the top score.
 */
export type Verdict =
  | {
      readonly kind: 'settled';
      readonly winner: string;
      readonly hits: readonly MarkHit[];
      readonly scores: readonly Score[];
      readonly because?: string;
      readonly shared?: readonly SharedFormat[];
    }
  | { readonly kind: 'unmarked'; readonly shared?: readonly SharedFormat[]; readonly unconfirmed?: Unconfirmed }
  | { readonly kind: 'close'; readonly contenders: readonly string[]; readonly scores: readonly Score[]; readonly shared?: readonly SharedFormat[] };

/**
 * A customer's reference formats that alone would have decided a message from a sender nothing ties to
 * that customer (issue 35, class 6: another customer may issue the same shape before anyone knows it).
 */
export interface Unconfirmed {
  readonly customer: string;
  readonly hits: readonly MarkHit[];
}

/**
 * A reference format of one customer that matched, left out of the score because it also fits a
 * reference another customer was taught (issue 35, class 6: two customers issue the same shape, and
 * the format decides for neither; SPEC §2.3.2).
 */
export interface SharedFormat {
  readonly hit: MarkHit;
  /** The other customer, and its reference the format fits. */
  readonly other: string;
  readonly reference: string;
}

type RE2Set = InstanceType<typeof RE2.Set>;

/** A mark with its owner and its place among the owner's marks (the order hits are listed in). */
interface OwnedMark {
  readonly customer: string;
  readonly mark: Mark;
  readonly index: number;
}

/** One RE2 Set of a field's marks in a shard (a piece of them), and for each pattern in it the mark it came from. */
export interface FieldSet {
  readonly set: RE2Set;
  readonly owners: readonly OwnedMark[];
}

/**
 * The marks of some customers (those whose key hashes to the shard), one RE2 Set per field that
 * any of them looks in. Identified by its content, so a version that changed none of these
 * customers reuses it as it is.
 */
export interface Shard {
  readonly signature: string;
  /** The customers it was compiled from, to recognise the very same ones without a signature. */
  readonly customers: readonly CustomerMarks[];
  /** Each field's marks, in sets of at most PIECE_MARKS (see there). */
  readonly sets: Readonly<Partial<Record<MessageField, readonly FieldSet[]>>>;
}

/** Every mark of one definition version, in shards. */
export interface CompiledMarks {
  /** Each customer by key, with its position in the definition (ties list in that order). */
  readonly customers: PlacedCustomers;
  readonly shards: readonly Shard[];
  /**
   * Right after a lesson, until the taught customer's shard is compiled again (in the background):
   * the customers whose marks in `shards` are out of date, left out there, and `patch`, a small
   * shard with exactly their marks as this version has them. Empty, and no patch, otherwise.
   */
  readonly stale: ReadonlySet<string>;
  readonly patch?: Shard;
}

/**
 * At most about this many marks a shard. The trade: a message costs one pass per shard (about
 * 12 µs each on a small machine), a lesson recompiles one shard (about 50 µs a mark, in slices of
 * one field's set). Up to 1,024 marks there is one shard, as before sharding; at 50,000 marks 64
 * shards — some 0.8 ms a message and 40 ms a lesson — where 256 shards of ~200 marks measured
 * 3 ms a message for 10 ms a lesson. Messages far outnumber lessons.
 */
export const MARKS_PER_SHARD = 1024;
let marksPerShard = MARKS_PER_SHARD;

/**
 * At most this many marks in one RE2 Set: a field's marks in a shard are compiled in pieces of
 * this size. A piece is what a background slice compiles while holding the event loop (a set of
 * 256 reference marks compiles in about 8 ms here, the subject set of a whole 1,024-mark shard in
 * 16-45 ms), and a message arriving meanwhile waits for it: at 50,000 marks, during the catching
 * up after a burst of lessons, whole-field sets took the lesson → decision p99 to 55-150 ms. A
 * message costs a pass per piece: at 50,000 marks about 6 passes a shard instead of 4.
 */
export const PIECE_MARKS = 256;
let pieceMarks = PIECE_MARKS;

/** Change the piece size (tests use small pieces to get several in a shard); returns the old one. */
export function setPieceMarks(marks: number): number {
  const before = pieceMarks;
  pieceMarks = Math.max(1, Math.floor(marks));
  return before;
}

/** Change the shard size (tests use small shards to get many from few marks); returns the old one. */
export function setMarksPerShard(marks: number): number {
  const before = marksPerShard;
  marksPerShard = Math.max(1, Math.floor(marks));
  return before;
}

/** The default memory budget RE2 gives a set: enough for about a thousand addresses. */
const SMALLEST_SET_MEMORY = 8 * 1024 * 1024;
/** Sets are rebuilt with twice the budget until they fit; this is where we stop. */
const LARGEST_SET_MEMORY = 4 * 1024 * 1024 * 1024;
/** RE2 needs about 90 bytes per pattern character for a set; the rest is cache for matching. */
const SET_MEMORY_PER_CHARACTER = 256;

// Keyed by the frozen entries array: a version never changes, and the runtime may pin a copy of
// the definition object (adding its version) that still shares the same entries.
const compiledByEntries = new WeakMap<readonly CustomerMarks[], CompiledMarks>();
const preparing = new WeakMap<readonly CustomerMarks[], Promise<CompiledMarks>>();
/** Single-mark regexes, compiled only for marks that won, to quote what they matched. */
const quoted = new WeakMap<OwnedMark, RE2>();
/** The sender conditions of "sender AND reference" marks, compiled the first time their text matches. */
const senders = new WeakMap<OwnedMark, RE2 | null>();

/** Whether the message is from the sender a mark's condition names (a mark without one: always). */
function fromItsSender(owner: OwnedMark, from: string): boolean {
  if (owner.mark.sender === undefined) return true;
  let regex = senders.get(owner);
  if (regex === undefined) {
    try {
      regex = compileSender(owner.mark) ?? null;
    } catch {
      // A condition that does not compile (not one a lesson could carry) meets no sender.
      regex = null;
    }
    senders.set(owner, regex);
  }
  return regex !== null && regex.test(from);
}

/**
 * Shards of recently compiled versions by content. A new version is usually the last one plus
 * one lesson: all its shards but one are found here. Bounded: the shards of about two versions.
 */
const recentShards = new Map<string, Shard>();
let recentShardsCapacity = 64;
/** The shards of the version compiled last in full (no patch), in shard order. */
let lastShards: readonly Shard[] = [];

/**
 * The most marks a patch holds. A lesson changes one customer (a few marks); a patch compiles in
 * well under a millisecond where the shard it stands in for (about 1,000 marks) takes 20–50 ms.
 * Past this (many lessons before the background compile caught up), the shards are compiled.
 */
export const PATCH_MARKS = 256;
/** A patch is at most this share of the marks of the shards it stands in for (1 in 4). */
const PATCH_SHARE = 4;
let patchMarks = PATCH_MARKS;

/** Change the largest patch (tests use 0 for none, or a large one for patches of many customers); returns the old one. */
export function setPatchMarks(marks: number): number {
  const before = patchMarks;
  patchMarks = Math.max(0, Math.floor(marks));
  return before;
}

/** The version whose patched shards are compiled next in the background (the newest patched). */
let consolidating: WeakRef<Definition<CustomerMarks>> | undefined;
/** Whether the background compile is running (one at a time), or waiting to start. */
let consolidation: 'idle' | 'waiting' | 'running' = 'idle';
let consolidationTimer: ReturnType<typeof setTimeout> | undefined;
/**
 * How long the background compile waits for lessons to stop coming before it starts: lessons
 * often come in bursts, and each would otherwise compile a shard while the next is being served.
 * It starts at once when the patch holds half of PATCH_MARKS.
 */
const QUIET_MS = 250;

/**
 * The shard for these customers if compiled before: by identity with the last version's shard
 * in the same place (an agent's definitions share untouched entries from one version to the
 * next), else by content. Undefined when it must be compiled; then also its signature.
 */
function knownShard(group: readonly CustomerMarks[], at: number, count: number): Shard | string {
  const same = sameShard(group, at, count);
  if (same !== undefined) return same;
  const signature = signatureOf(group);
  return recentShards.get(signature) ?? signature;
}

/** The last shard in this place if it holds these very customers (no signature: that costs a walk of their marks). */
function sameShard(group: readonly CustomerMarks[], at: number, count: number): Shard | undefined {
  const last = lastShards.length === count ? lastShards[at] : undefined;
  if (last === undefined) return undefined;
  // A version planned from the last one shares its untouched shards' arrays.
  if (last.customers === group) return last;
  if (last.customers.length === group.length && last.customers.every((customer, i) => customer === group[i])) return last;
  return undefined;
}

function rememberShard(shard: Shard): void {
  recentShards.delete(shard.signature);
  recentShards.set(shard.signature, shard);
  while (recentShards.size > recentShardsCapacity) recentShards.delete(recentShards.keys().next().value as string);
}

/**
 * Which customer the marks of this definition give the message to. Every mark that matches its
 * field (a mark for `any` matching any field) scores one point for its customer, once; the top
 * customer wins if it leads the next by at least `margin` points.
 */
export function matchMarks(definition: Definition<CustomerMarks>, fields: MessageFields, margin: number, only?: MarksAdmitted): Verdict {
  const compiled = compileMarks(definition);
  const matched = new Map<OwnedMark, MessageField>();
  const admitted = only === 'taught-for-automated' ? taughtForAutomated(definition) : undefined;
  for (const field of MESSAGE_FIELDS) {
    forEachMatch(compiled, field, fields[field], (owner) => {
      if (!matched.has(owner) && fromItsSender(owner, fields.from) && (admitted === undefined || admitted(owner))) matched.set(owner, field);
    });
  }
  // A reference format that fits another customer's taught reference tells neither apart: it does not score.
  let shared: SharedFormat[] | undefined;
  // In the order of the fields, then of the customers and their marks in the definition, as the hits below:
  // the matches come in the order of the compiled shards, which a cached index may hold differently.
  const position = (key: string) => compiled.customers.get(key)?.position ?? 0;
  const inDefinitionOrder = [...matched].sort(
    ([a, fieldA], [b, fieldB]) =>
      MESSAGE_FIELDS.indexOf(fieldA) - MESSAGE_FIELDS.indexOf(fieldB) || position(a.customer) - position(b.customer) || a.index - b.index,
  );
  for (const [owner, field] of inDefinitionOrder) {
    const fits = otherReferenceFitting(definition, owner);
    if (fits === undefined) continue;
    // Only a match that holds a digit (a reference): preview's `affects` relies on it (customer-finding.ts).
    const hit = hitOf(owner, field, fields[field]);
    if (!/[0-9]/.test(hit.text)) continue;
    matched.delete(owner);
    shared ??= [];
    shared.push({ hit, ...fits });
  }
  const withShared = shared === undefined ? {} : { shared };
  if (matched.size === 0) return { kind: 'unmarked', ...withShared };

  const points = new Map<string, number>();
  for (const { customer } of matched.keys()) points.set(customer, (points.get(customer) ?? 0) + 1);
  const scores = [...points]
    .map(([customer, score]) => ({ customer, points: score }))
    .sort((a, b) => b.points - a.points || position(a.customer) - position(b.customer));
  const [top, next] = scores as [Score, ...Score[]];
  if (top.points - (next?.points ?? 0) < margin) {
    const contenders = scores.filter((score) => top.points - score.points < margin).map((score) => score.customer);
    return { kind: 'close', contenders, scores, ...withShared };
  }
  // In the order of the fields, then of the marks in the definition (customer, then its marks).
  const hits = [...matched]
    .filter(([owner]) => owner.customer === top.customer)
    .sort(([a, fieldA], [b, fieldB]) => MESSAGE_FIELDS.indexOf(fieldA) - MESSAGE_FIELDS.indexOf(fieldB) || a.index - b.index)
    .map(([owner, field]) => hitOf(owner, field, fields[field]));
  return { kind: 'settled', winner: top.customer, hits, scores, ...withShared };
}

// ---------------------------------------------------------------------------------------------
// Shared reference formats (issue 35, class 6).

const [REFERENCE_OPENS, REFERENCE_CLOSES] = referencePattern('\u0000').split('\u0000') as [string, string];

/** The reference a literal reference mark (`referencePattern(reference)`, as suggestions write it) stands for; undefined for any other mark. */
export function literalReferenceOf(pattern: string): string | undefined {
  if (pattern.length <= REFERENCE_OPENS.length + REFERENCE_CLOSES.length || !pattern.startsWith(REFERENCE_OPENS) || !pattern.endsWith(REFERENCE_CLOSES))
    return undefined;
  const escaped = pattern.slice(REFERENCE_OPENS.length, pattern.length - REFERENCE_CLOSES.length);
  // Only escaped text: an unescaped metacharacter means a pattern, not one reference.
  if (/(?<!\\)[\^$.|?*+()[\]{}]/.test(escaped.replace(/\\\\/g, ''))) return undefined;
  return escaped.replace(/\\(.)/g, '$1');
}

/** Whether a mark is a reference format: a pattern for many references (it has a digit class), not one reference, an address or a name. */
export function isReferenceFormat(mark: Mark): boolean {
  return !mark.pattern.includes('@') && /\\d|\[0-9/.test(mark.pattern) && literalReferenceOf(mark.pattern) === undefined;
}

/** Each version's taught literal references, with whose they are; built the first time a format matches. */
const referencesByEntries = new WeakMap<readonly CustomerMarks[], readonly { readonly customer: string; readonly reference: string }[]>();
/** For each version and format mark that matched, the other customer's reference it fits, or null. */
const fitsByEntries = new WeakMap<readonly CustomerMarks[], Map<OwnedMark, { other: string; reference: string } | null>>();

function literalReferences(definition: Definition<CustomerMarks>): readonly { readonly customer: string; readonly reference: string }[] {
  let references = referencesByEntries.get(definition.entries);
  if (references === undefined) {
    references = definition.entries.flatMap((customer) =>
      customer.marks.flatMap((mark) => {
        const reference = literalReferenceOf(mark.pattern);
        return reference === undefined ? [] : [{ customer: customer.key, reference }];
      }),
    );
    referencesByEntries.set(definition.entries, references);
  }
  return references;
}

/**
 * Another customer's taught reference that this customer's reference format also fits, if any: the
 * format is then a shape both issue (Quarry Stone's `QS/\d{4}/\d{3,}` and Quayside's `QS/2027/4101`).
 * Decided from the definition alone, so read, reread and preview agree.
 */
export function otherReferenceFitting(
  definition: Definition<CustomerMarks>,
  owner: { readonly customer: string; readonly mark: Mark },
): { other: string; reference: string } | undefined {
  if (!isReferenceFormat(owner.mark)) return undefined;
  let fits = fitsByEntries.get(definition.entries);
  if (fits === undefined) {
    fits = new Map();
    fitsByEntries.set(definition.entries, fits);
  }
  const known = fits.get(owner as OwnedMark);
  if (known !== undefined) return known ?? undefined;
  let found: { other: string; reference: string } | null = null;
  let regex: RE2 | undefined;
  try {
    regex = compileMark(owner.mark.pattern);
  } catch {
    regex = undefined;
  }
  if (regex !== undefined) {
    for (const { customer, reference } of literalReferences(definition)) {
      if (customer !== owner.customer && regex.test(reference)) {
        found = { other: customer, reference };
        break;
      }
    }
  }
  fits.set(owner as OwnedMark, found);
  return found ?? undefined;
}

/**
 * Which marks may score (issue 35). `taught-for-automated`: automated mail (auto-replies, delivery
 * reports, notices) is nobody's unless a lesson says so, so only a mark with a sender condition (a
 * lesson on that sender's mail) or a mark of an entry for nobody's mail scores on it.
 */
export type MarksAdmitted = 'taught-for-automated';

function taughtForAutomated(definition: Definition<CustomerMarks>): (owner: OwnedMark) => boolean {
  return (owner) => owner.mark.sender !== undefined || findCustomer(definition, owner.customer)?.noCustomer === true;
}

/** Every mark of `field` that matches `text`, in the shards (leaving out stale customers') and the patch. */
function forEachMatch(compiled: CompiledMarks, field: MessageField, text: string, visit: (owner: OwnedMark) => void): void {
  const several = compiled.shards.length > 1 || compiled.patch !== undefined || (compiled.shards[0]?.sets[field]?.length ?? 0) > 1;
  // Several sets read the same text: encode it once rather than once per set.
  const encoded = several ? Buffer.from(text, 'utf8') : text;
  const stale = compiled.stale;
  for (const shard of compiled.shards) {
    const pieces = shard.sets[field];
    if (pieces === undefined) continue;
    for (const piece of pieces) {
      for (const index of piece.set.match(encoded)) {
        const owner = piece.owners[index] as OwnedMark;
        if (stale.size === 0 || !stale.has(owner.customer)) visit(owner);
      }
    }
  }
  const patchPieces = compiled.patch?.sets[field];
  if (patchPieces !== undefined) for (const piece of patchPieces) for (const index of piece.set.match(encoded)) visit(piece.owners[index] as OwnedMark);
}

/**
 * Compile a definition's marks now, on this thread; later calls with the same version get the
 * same sets. Shards whose customers are unchanged since a recent version are reused, so after a
 * lesson only the shard of the taught customer is compiled — or, when few marks changed, only
 * the changed customers' marks, as a patch over the last shards (see `patchOver`).
 */
export function compileMarks(definition: Definition<CustomerMarks>): CompiledMarks {
  const known = compiledByEntries.get(definition.entries);
  if (known !== undefined) return known;
  const plan = planOf(definition);
  const patched = patchOver(definition, plan);
  if (patched !== undefined) return patched;
  const shards = plan.groups.map((group, at) => {
    const known = knownShard(group, at, plan.groups.length);
    return typeof known === 'string' ? compileShard(known, group) : known;
  });
  return finish(definition, plan, shards);
}

/**
 * A version served at once after a lesson: the last shards as they are, the customers that
 * changed in them left out (`stale`), and a patch with those customers' marks as they are now —
 * one small set per field instead of a thousand-mark shard (at 50,000 marks, well under a
 * millisecond against 20–50 ms). It decides exactly as the version compiled in full; the full
 * shards are compiled afterwards in the background, in slices, and then take the patch's place.
 * Undefined when there is no last version to patch, the shard count changed, or too much did.
 */
function patchOver(definition: Definition<CustomerMarks>, plan: Plan): CompiledMarks | undefined {
  const count = plan.groups.length;
  if (patchMarks === 0 || lastShards.length !== count) return undefined;
  const found = plan.groups.map((group, at) => sameShard(group, at, count));
  const stale = new Set<string>();
  const changed: CustomerMarks[] = [];
  let marks = 0;
  let marksNow = 0;
  let marksBefore = 0;
  for (const [at, known] of found.entries()) {
    if (known !== undefined) continue;
    const place = placeChange(plan.groups[at]!, lastShards[at]!);
    for (const key of place.stale) stale.add(key);
    changed.push(...place.changed);
    marks += place.marks;
    marksNow += place.marksNow;
    marksBefore += place.marksBefore;
    if (marks > patchMarks) return undefined;
  }
  // Nothing to patch (every shard known), or not a few changes to mostly the same customers (a
  // patch is worth it when it is much smaller than the shards it stands in for).
  if (stale.size === 0 || marks * PATCH_SHARE > Math.min(marksNow, marksBefore)) return undefined;
  const shards = found.map((known, at) => known ?? lastShards[at]!);
  const group = [...changed].sort((a, b) => plan.customers.get(a.key)!.position - plan.customers.get(b.key)!.position);
  const patch = compileShard('', group);
  const compiled: CompiledMarks = { customers: plan.customers, shards, stale, patch };
  compiledByEntries.set(definition.entries, compiled);
  consolidating = new WeakRef(definition);
  if (consolidation !== 'running') {
    clearTimeout(consolidationTimer);
    consolidation = 'waiting';
    consolidationTimer = setTimeout(() => void consolidate(), 2 * marks >= patchMarks ? 0 : QUIET_MS);
    consolidationTimer.unref?.();
  }
  return compiled;
}

/** How the customers of one place differ from the shard compiled there (see `placeChange`). */
interface PlaceChange {
  readonly base: Shard;
  /** Keys of the customers changed, added or gone since `base`. */
  readonly stale: readonly string[];
  /** The customers changed or added, as they are now. */
  readonly changed: readonly CustomerMarks[];
  /** The marks of `changed`; of the place now; of the place in `base`. */
  readonly marks: number;
  readonly marksNow: number;
  readonly marksBefore: number;
}

/** Each place's difference from its base shard, by the place's customers array (a plan shares the arrays of places a version did not touch). */
const placeChanges = new WeakMap<readonly CustomerMarks[], PlaceChange>();

/**
 * What changed in a place since the shard compiled there. In a burst of lessons every version is
 * patched over the same last shards, and all but one of its stale places are those of the
 * version before, with the same arrays: their differences are found again, not walked again (a
 * walk of every stale place, each some 400 customers at 50,000 marks, cost 3-8 ms a version by
 * the end of a burst of 60 lessons).
 */
function placeChange(group: readonly CustomerMarks[], base: Shard): PlaceChange {
  const known = placeChanges.get(group);
  if (known !== undefined && known.base === base) return known;
  const before = new Map(base.customers.map((customer) => [customer.key, customer]));
  const stale: string[] = [];
  const changed: CustomerMarks[] = [];
  let marks = 0;
  let marksNow = 0;
  let marksBefore = 0;
  const now = new Set<string>();
  for (const customer of group) {
    now.add(customer.key);
    marksNow += customer.marks.length;
    if (before.get(customer.key) === customer) continue;
    stale.push(customer.key);
    changed.push(customer);
    marks += customer.marks.length;
  }
  for (const [key, customer] of before) {
    marksBefore += customer.marks.length;
    if (!now.has(key)) stale.push(key);
  }
  const place: PlaceChange = { base, stale, changed, marks, marksNow, marksBefore };
  placeChanges.set(group, place);
  return place;
}

/**
 * Compile the newest patched version's stale shards in full, one at a time and each in slices,
 * then put them in the patch's place (both decide alike). Each shard compiled becomes the last
 * shard of its place at once, so a version that comes meanwhile patches over it, with a smaller
 * patch, and nothing compiled is thrown away; the compile goes on with that newer version.
 */
/** Start the background compile now if it waits, and resolve when no version is patched any more (for tests). */
export async function compiledInFull(): Promise<void> {
  if (consolidation === 'waiting') {
    clearTimeout(consolidationTimer);
    await consolidate();
  }
  while (consolidation === 'running') await new Promise((resolve) => setTimeout(resolve, 1));
}

async function consolidate(): Promise<void> {
  consolidation = 'running';
  try {
    for (;;) {
      const definition = consolidating?.deref();
      if (definition === undefined) return;
      const plan = planOf(definition);
      const count = plan.groups.length;
      // The shard count changed since (a version compiled in full): start from empty places.
      if (lastShards.length !== count) lastShards = plan.groups.map(() => NO_SHARD);
      const at = plan.groups.findIndex((group, i) => sameShard(group, i, count) === undefined);
      if (at < 0) {
        const shards = plan.groups.map((group, i) => sameShard(group, i, count)!);
        consolidating = undefined;
        finish(definition, plan, shards);
        return;
      }
      const group = plan.groups[at]!;
      const signature = signatureOf(group);
      let shard = recentShards.get(signature);
      if (shard === undefined) {
        const sets: Partial<Record<MessageField, FieldSet[]>> = {};
        for (const [field, owners] of piecesOf(group)) {
          // Nobody waits for this compile (the patch serves the version meanwhile): each slice
          // waits for a pause in the tasks being advanced, rather than cutting into one.
          await backgroundTurn();
          compilePiece(sets, field, owners);
        }
        shard = recentShards.get(signature) ?? { signature, customers: group, sets };
      }
      // Found by content, it may hold other objects for the same customers: these ones, so that the
      // place counts as done (the sets depend on content only).
      const compiled: Shard = shard.customers === group ? shard : { signature, customers: group, sets: shard.sets };
      rememberShard(compiled);
      if (lastShards.length === count) lastShards = lastShards.map((last, i) => (i === at ? compiled : last));
    }
  } finally {
    consolidation = 'idle';
  }
}

/**
 * Compile a definition's marks in slices, giving the event loop back between one set and the
 * next, so requests of other tasks are not held up however many marks there are. The runtime
 * calls it when the change feed announces a version (ahead of the first message) and before a
 * task reads; `matchMarks` then finds the sets ready. Calls for a version share one compile.
 */
export function prepareMarks(definition: Definition<CustomerMarks>): Promise<CompiledMarks> {
  const known = compiledByEntries.get(definition.entries);
  if (known !== undefined) return Promise.resolve(known);
  let pending = preparing.get(definition.entries);
  if (pending === undefined) {
    pending = compileInSlices(definition).finally(() => preparing.delete(definition.entries));
    preparing.set(definition.entries, pending);
  }
  return pending;
}

async function compileInSlices(definition: Definition<CustomerMarks>): Promise<CompiledMarks> {
  const plan = planOf(definition);
  const patched = patchOver(definition, plan);
  if (patched !== undefined) return patched;
  const shards: Shard[] = [];
  for (const [at, group] of plan.groups.entries()) {
    const known = knownShard(group, at, plan.groups.length);
    if (typeof known !== 'string') {
      shards.push(known);
      continue;
    }
    const sets: Partial<Record<MessageField, FieldSet[]>> = {};
    for (const [field, owners] of piecesOf(group)) {
      await yieldToEventLoop();
      compilePiece(sets, field, owners);
    }
    // A synchronous compile may have finished this shard meanwhile; either is the same.
    const shard = recentShards.get(known) ?? { signature: known, customers: group, sets };
    rememberShard(shard);
    shards.push(shard);
  }
  // A synchronous compile may have finished the whole version meanwhile: keep one answer.
  return compiledByEntries.get(definition.entries) ?? finish(definition, plan, shards);
}

/**
 * The customers, in definition order, with a mark that looks in `field` (its own or `any`) and
 * matches `text`: one pass of the version's compiled sets. A suggestion asks this of the sender
 * for every message no mark settles; compiling each customer's marks again for it cost 300 ms a
 * question at 10,000 marks.
 */
export function customersMatching(definition: Definition<CustomerMarks>, field: MessageField, text: string): CustomerMarks[] {
  const compiled = compileMarks(definition);
  const keys = new Set<string>();
  forEachMatch(compiled, field, text, (owner) => {
    // "The sender AND this text" is no mark of this text alone.
    if (owner.mark.sender === undefined) keys.add(owner.customer);
  });
  return [...keys]
    .map((key) => compiled.customers.get(key)!)
    .sort((a, b) => a.position - b.position)
    .map(({ customer }) => customer);
}

/** A customer of the definition by key, without a walk through every entry (and no compile). */
export function findCustomer(definition: Definition<CustomerMarks>, key: string): CustomerMarks | undefined {
  return customersOf(definition.entries).get(key)?.customer;
}

interface Plan {
  readonly customers: PlacedCustomers;
  /** The customers of each shard, in definition order. */
  readonly groups: readonly (readonly CustomerMarks[])[];
}

/** Each version's plan, made once (a version is planned to serve it, then to compile it in the background). */
const plans = new WeakMap<readonly CustomerMarks[], { readonly plan: Plan; readonly marks: number; readonly marksPerShard: number }>();
/** The version planned last, to plan the next one from: a lesson changes one customer of 25,000. */
let lastPlanned: { readonly entries: readonly CustomerMarks[]; readonly plan: Plan; readonly marks: number } | undefined;

/** A power of two, so the count (and with it every shard) stays the same from one version to the next until the marks double or halve. */
function shardCount(marks: number): number {
  let count = 1;
  while (marks / count > marksPerShard) count *= 2;
  return count;
}

function planOf(definition: Definition<CustomerMarks>): Plan {
  const entries = definition.entries;
  const known = plans.get(entries);
  if (known !== undefined && known.marksPerShard === marksPerShard) return known.plan;
  const planned = planFromLast(entries) ?? planAfresh(entries);
  plans.set(entries, { ...planned, marksPerShard });
  lastPlanned = { entries, ...planned };
  return planned.plan;
}

function planAfresh(entries: readonly CustomerMarks[]): { plan: Plan; marks: number } {
  let marks = 0;
  for (const customer of entries) marks += customer.marks.length;
  const count = shardCount(marks);
  const groups = Array.from({ length: count }, (): CustomerMarks[] => []);
  for (const customer of entries) groups[hashOf(customer) & (count - 1)]!.push(customer);
  return { plan: { customers: customersOf(entries), groups }, marks };
}

/**
 * The plan of a version made from the last one planned by a few changes — customers replaced in
 * their places, customers added at the end, as a lesson, the authority client and absorbLesson
 * make them — in time proportional to the changes, not to the customers: at 50,000 marks,
 * planning each version afresh (every customer hashed into its shard, every key indexed) took
 * about 8 of the 20 ms a version cost before its first message could be read. The shards
 * untouched are the very same arrays as the last plan's (which `sameShard` sees at once).
 * Undefined (plan afresh) for anything else, or when the shard count changes.
 */
function planFromLast(entries: readonly CustomerMarks[]): { plan: Plan; marks: number } | undefined {
  const last = lastPlanned;
  const made = last && madeFrom(entries, last.entries);
  if (last === undefined || made === undefined) return undefined;
  let marks = last.marks;
  for (const at of made.replaced) marks += entries[at]!.marks.length - last.entries[at]!.marks.length;
  for (let at = last.entries.length; at < entries.length; at += 1) marks += entries[at]!.marks.length;
  const count = last.plan.groups.length;
  if (shardCount(marks) !== count) return undefined;
  const groups = [...last.plan.groups];
  const copied = new Set<number>();
  const groupFor = (customer: CustomerMarks): CustomerMarks[] => {
    const place = hashOf(customer) & (count - 1);
    if (!copied.has(place)) {
      groups[place] = [...groups[place]!];
      copied.add(place);
    }
    return groups[place] as CustomerMarks[];
  };
  for (const at of made.replaced) {
    // Same key, so the same shard, and the same place in it (definition order).
    const group = groupFor(entries[at]!);
    const place = group.indexOf(last.entries[at]!);
    if (place < 0) return undefined;
    group[place] = entries[at]!;
  }
  for (let at = last.entries.length; at < entries.length; at += 1) groupFor(entries[at]!).push(entries[at]!);
  return { plan: { customers: customersOf(entries), groups }, marks };
}

/** The most changes a version may have from the last one and still be planned from it. */
const CHANGES_TO_PLAN_FROM = 256;

/**
 * How `entries` is made from `before`, when it is by a few changes: the places whose customer was
 * replaced by another object with the same key, the rest the very same objects, and maybe a few
 * added at the end. Undefined otherwise. A walk of the two arrays comparing objects, no key read
 * but the replaced ones'.
 */
function madeFrom(entries: readonly CustomerMarks[], before: readonly CustomerMarks[]): { replaced: number[] } | undefined {
  const added = entries.length - before.length;
  if (added < 0 || added > CHANGES_TO_PLAN_FROM) return undefined;
  const replaced: number[] = [];
  for (let at = 0; at < before.length; at += 1) {
    if (entries[at] === before[at]) continue;
    if (entries[at]!.key !== before[at]!.key || replaced.length + added >= CHANGES_TO_PLAN_FROM) return undefined;
    replaced.push(at);
  }
  return { replaced };
}

function finish(definition: Definition<CustomerMarks>, plan: Plan, shards: readonly Shard[]): CompiledMarks {
  recentShardsCapacity = Math.max(64, 2 * shards.length);
  for (const shard of shards) rememberShard(shard);
  lastShards = shards;
  const compiled: CompiledMarks = { customers: plan.customers, shards, stale: NONE_STALE };
  compiledByEntries.set(definition.entries, compiled);
  return compiled;
}

const NONE_STALE: ReadonlySet<string> = new Set();
/** The shard of no customers: nothing to match. */
const NO_SHARD: Shard = { signature: '[]', customers: [], sets: {} };

/** Each customer of a version by key, with its position in the version's entries. */
export interface PlacedCustomers {
  get(key: string): { readonly customer: CustomerMarks; readonly position: number } | undefined;
}

/**
 * Customers by key, over a key → position index that versions made one from another share: a
 * lesson replaces a customer in its place and an added customer goes last, so every other keeps
 * its position, and a version's index costs nothing to make (a Map of 25,000 keys cost 3-5 ms a
 * version). A position is believed only when the version's entry there has that key; otherwise
 * (another version made from the same one added a different customer there, or this one does
 * not reach it) the entries are searched.
 */
class CustomerIndex implements PlacedCustomers {
  constructor(
    private readonly entries: readonly CustomerMarks[],
    private readonly positions: Map<string, number>,
  ) {}

  get(key: string): { readonly customer: CustomerMarks; readonly position: number } | undefined {
    let position = this.positions.get(key);
    // Every key of every version sharing the index is in it: no position, no such customer.
    if (position === undefined) return undefined;
    if (this.entries[position]?.key !== key) {
      position = this.entries.findIndex((customer) => customer.key === key);
      if (position < 0) return undefined;
    }
    return { customer: this.entries[position]!, position };
  }

  /** The index of `entries`, made from this one's version as `madeFrom` says (the added keys join the shared positions). */
  next(entries: readonly CustomerMarks[]): CustomerIndex {
    for (let at = this.entries.length; at < entries.length; at += 1) this.positions.set(entries[at]!.key, at);
    return new CustomerIndex(entries, this.positions);
  }

  static of(entries: readonly CustomerMarks[]): CustomerIndex {
    const positions = new Map<string, number>();
    for (let at = 0; at < entries.length; at += 1) positions.set(entries[at]!.key, at);
    return new CustomerIndex(entries, positions);
  }
}

const customersByEntries = new WeakMap<readonly CustomerMarks[], CustomerIndex>();
/** The version indexed last, to index the next one from. */
let lastIndexed: { readonly entries: readonly CustomerMarks[]; readonly index: CustomerIndex } | undefined;

function customersOf(entries: readonly CustomerMarks[]): CustomerIndex {
  let index = customersByEntries.get(entries);
  if (index === undefined) {
    const last = lastIndexed;
    index = last !== undefined && madeFrom(entries, last.entries) !== undefined ? last.index.next(entries) : CustomerIndex.of(entries);
    customersByEntries.set(entries, index);
    lastIndexed = { entries, index };
  }
  return index;
}

/** FNV-1a of the key: the same customer is in the same shard in every version. */
function fnv1a(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i += 1) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** The hash of each customer's key, by customer: versions share their untouched customers. */
const hashes = new WeakMap<CustomerMarks, number>();
function hashOf(customer: CustomerMarks): number {
  let hash = hashes.get(customer);
  if (hash === undefined) {
    hash = fnv1a(customer.key);
    hashes.set(customer, hash);
  }
  return hash;
}

/** Everything a shard's sets depend on: its customers in order, and each one's marks in order. */
function signatureOf(group: readonly CustomerMarks[]): string {
  return JSON.stringify(group.map((customer) => [customer.key, customer.marks.map((mark) => [mark.pattern, mark.where, mark.sender ?? null])]));
}

/** For each field any of these customers looks in, its marks in definition order. */
function fieldsOf(group: readonly CustomerMarks[]): [MessageField, OwnedMark[]][] {
  const owned = group.flatMap((customer) => customer.marks.map((mark, index) => ({ customer: customer.key, mark, index })));
  return MESSAGE_FIELDS.map((field) => [field, owned.filter(({ mark }) => mark.where === field || mark.where === 'any')] as [MessageField, OwnedMark[]]).filter(
    ([, owners]) => owners.length > 0,
  );
}

/** `fieldsOf`, each field's marks cut in pieces of at most `pieceMarks`, in order: one set each. */
function piecesOf(group: readonly CustomerMarks[]): [MessageField, OwnedMark[]][] {
  return fieldsOf(group).flatMap(([field, owners]) => {
    const pieces: [MessageField, OwnedMark[]][] = [];
    for (let at = 0; at < owners.length; at += pieceMarks) pieces.push([field, owners.slice(at, at + pieceMarks)]);
    return pieces;
  });
}

/** Compile one piece of a field's marks (a slice's work) and add it to the field's sets. */
function compilePiece(sets: Partial<Record<MessageField, FieldSet[]>>, field: MessageField, owners: readonly OwnedMark[]): void {
  sets[field] ??= [];
  sets[field].push({ set: buildSet(owners), owners });
}

function compileShard(signature: string, customers: readonly CustomerMarks[]): Shard {
  const sets: Partial<Record<MessageField, FieldSet[]>> = {};
  for (const [field, owners] of piecesOf(customers)) compilePiece(sets, field, owners);
  return { signature, customers, sets };
}

/** The same flags as `compileMark`, so a mark matches in the set exactly as it did when taught. */
function buildSet(marks: readonly OwnedMark[]): RE2Set {
  const patterns = marks.map(({ mark }) => mark.pattern);
  const characters = patterns.reduce((total, pattern) => total + pattern.length, 0);
  let maxMem = Math.max(SMALLEST_SET_MEMORY, characters * SET_MEMORY_PER_CHARACTER);
  for (;;) {
    try {
      return new RE2.Set(patterns, 'iu', { maxMem });
    } catch (error) {
      if (!(error instanceof Error) || !error.message.includes('could not be compiled')) throw unusableMark(marks, error);
      if (maxMem >= LARGEST_SET_MEMORY) {
        throw new Error(`${marks.length} marks do not fit in RE2's largest set (${LARGEST_SET_MEMORY} bytes); some patterns are too large.`);
      }
      maxMem *= 2;
    }
  }
}

/** Marks are checked when taught, but a seed is not; name the one that does not compile. */
function unusableMark(marks: readonly OwnedMark[], cause: unknown): Error {
  for (const { customer, mark } of marks) {
    try {
      compileMark(mark.pattern);
    } catch (error) {
      return new Error(`${customer}'s mark cannot be used: ${(error as Error).message}`, { cause });
    }
  }
  return cause instanceof Error ? cause : new Error(String(cause));
}

function hitOf(owner: OwnedMark, field: MessageField, text: string): MarkHit {
  let regex = quoted.get(owner);
  if (regex === undefined) {
    regex = compileMark(owner.mark.pattern);
    quoted.set(owner, regex);
  }
  return { customer: owner.customer, mark: owner.mark, field, text: regex.exec(text)?.[0] ?? '' };
}
