import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Random } from '@learnables/testing';
import { repoRoot } from '../config.ts';

/** Where `make-scenario.ts` writes the scenario, and where the runner reads it by default. */
export const SCENARIO_DIR = join(repoRoot, 'fixtures', 'scenario');
/** Where `make-trap-scenario.ts` writes the trap scenario (its main variant). */
export const TRAP_SCENARIO_DIR = join(repoRoot, 'fixtures', 'trap-scenario');

/** The email agent's truth: which customer (a key of fixtures/seeds/customers.json) it belongs to. */
export interface EmailTruth {
  readonly entry: string;
  /**
   * A customer the seed does not have, by the name the clerk adds it under (SPEC §3.5, with `entry`
   * as its key) the first time its mail is asked about or found decided for another.
   */
  readonly label?: string;
  /**
   * Nobody's mail that the clerk answers "none of these" (SPEC §2.8) and remembers nothing of: a
   * decision of no customer, or for an entry that stands for nobody's mail (`no-customer`), is right;
   * one for a customer is wrong. (The trap scenario's nobody's mail is answered as the `no-customer`
   * entry instead, and taught.)
   */
  readonly none?: true;
}

/**
 * The manifest agent's truth: which column heading holds the field the question is about
 * (`waybill`), and, when the stream says so, every field's heading (null where the sheet has no
 * column for it): a field read from any other column is a wrong decision.
 */
export interface ManifestTruth {
  readonly entry: string;
  readonly column: string;
  readonly columns?: Readonly<Record<string, string | null>>;
}

/**
 * One message of the stream, in the order it arrives. `truth` is what the simulated operator
 * answers from. `remember: false` marks a question a person answers but would not turn into a
 * rule (`why` says why): the sender writes for several customers, so its address proves nothing.
 */
export type StreamItem = {
  readonly file: string;
  /** The message's own date (email: its Date header; manifest: the day in its file name). */
  readonly date: string;
  /** 1-based week of the scenario the date falls in (weeks start on Monday, UTC). */
  readonly week: number;
  /** Who it is from: the sender's line, or the forwarder's name. */
  readonly source: string;
  readonly remember?: false;
  readonly why?: string;
  /** The trap the message carries, in a few words (the trap scenario says; the six-week one does not). */
  readonly trap?: string;
} & ({ readonly agent: 'email'; readonly truth: EmailTruth } | { readonly agent: 'manifest'; readonly truth: ManifestTruth });

export interface Stream {
  readonly description: string;
  /** The Monday of week 1 and the Sunday of the last week, `YYYY-MM-DD`. */
  readonly from: string;
  readonly to: string;
  readonly weeks: number;
  readonly messages: readonly StreamItem[];
}

export function loadStream(dir: string = SCENARIO_DIR): Stream {
  return JSON.parse(readFileSync(join(dir, 'stream.json'), 'utf8')) as Stream;
}

export const DAY_MS = 86_400_000;

/** The Monday (UTC) of the week `date` falls in, as `YYYY-MM-DD` — how the agents' ledgers group weeks. */
export function weekStart(date: Date | string): string {
  const at = typeof date === 'string' ? Date.parse(date) : date.getTime();
  const day = Math.floor(at / DAY_MS) * DAY_MS;
  const weekday = (new Date(day).getUTCDay() + 6) % 7;
  return new Date(day - weekday * DAY_MS).toISOString().slice(0, 10);
}

/** One email a stream generator wrote: its bytes, and what the stream says of it. */
export interface WrittenEmail {
  readonly bytes: Buffer;
  readonly truth: EmailTruth;
  readonly trap: string;
  readonly source: string;
  /** A short name for the file. */
  readonly tag: string;
}

/** An email a generator plans to send at `at` (in `week`, or the week `at` falls in). */
export interface PlannedEmail {
  readonly at: Date;
  readonly week?: number;
  readonly write: (random: Random) => WrittenEmail;
}

const stamp = (at: Date) => at.toISOString().slice(0, 16).replace(':', '').replace('T', '-');

/**
 * Write a generated email stream into `dir`, replacing its email/: each planned message (written in
 * plan order, from one PRNG, so the same seed gives the same bytes) under a file named for its time
 * and tag, and stream.json. The held-out streams share only this mechanics; what they write is
 * their own.
 */
export function writeEmailStream(
  dir: string,
  planned: readonly PlannedEmail[],
  random: Random,
  about: { readonly description: string; readonly firstMonday: number; readonly weeks: number },
): { readonly stream: Stream; readonly bytes: number } {
  rmSync(join(dir, 'email'), { recursive: true, force: true });
  mkdirSync(join(dir, 'email'), { recursive: true });
  const messages: StreamItem[] = [];
  const names = new Set<string>();
  let bytes = 0;
  for (const item of planned) {
    const written = item.write(random);
    let file = `email/${stamp(item.at)}-${written.tag}.eml`;
    for (let n = 2; names.has(file); n++) file = `email/${stamp(item.at)}-${written.tag}-${n}.eml`;
    names.add(file);
    writeFileSync(join(dir, file), written.bytes);
    bytes += written.bytes.length;
    const week = item.week ?? Math.floor((item.at.getTime() - about.firstMonday) / (7 * DAY_MS)) + 1;
    messages.push({ file, date: item.at.toISOString(), week, agent: 'email', source: written.source, truth: written.truth, trap: written.trap });
  }
  const stream: Stream = {
    description: about.description,
    from: new Date(about.firstMonday).toISOString().slice(0, 10),
    to: new Date(about.firstMonday + (about.weeks * 7 - 1) * DAY_MS).toISOString().slice(0, 10),
    weeks: about.weeks,
    messages,
  };
  writeFileSync(join(dir, 'stream.json'), `${JSON.stringify(stream, null, 1)}\n`);
  return { stream, bytes };
}
