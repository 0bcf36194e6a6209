import { inSpan, traceCarrier } from '@learnables/tracing';
import { availableParallelism } from 'node:os';
import { existsSync } from 'node:fs';
import { Piscina } from 'piscina';
import { InputRefused } from '@learnables/learnable';
import type { InputPart } from '@learnables/learnable';
import type { LearnableAgent, ParseModule } from '../learnable-agent.ts';
import { readingCost } from './reading-cost.ts';

export interface ParsingOptions {
  /**
   * Threads that read messages, for an agent that names its parse module. 0 reads them on the
   * event loop. Default: one per core.
   */
  readonly threads?: number;
  /**
   * Messages read at once, or waiting for a thread, before one more is answered busy.
   * Default: twice the threads, and at least 2.
   */
  readonly maxParses?: number;
  /**
   * Messages that cost less than this many bytes to read are read on the event loop: they take
   * milliseconds, less than handing them to a thread (and a thread that no message needs is never
   * started). A message costs its bytes, and a zip in it (an .xlsx) the bytes its directory says it
   * unpacks to, not the bytes that came: a 15 kB workbook of 14 MB of cells froze /healthz for
   * seconds (issue 34). Default 16 kB: every ordinary email stays in; a 32 kB sheet with a cell in
   * column XFD (seconds of exceljs), and a workbook of any size (Excel's parts alone unpack to more),
   * go out. 0 sends every message to a thread.
   */
  readonly inThreadFrom?: number;
  /**
   * Bytes of the messages taken and not yet answered (a task's message stays in memory until its
   * answer is sent, read or not), before one more is answered busy; each message counts at least
   * 64 KiB. Default: `maxParses` times 48 MiB, so as many of the largest messages the default body
   * limit takes (40 MB) as are read at once, and thousands of ordinary ones.
   */
  readonly inFlightBytes?: number;
}

/** The least a message counts against `inFlightBytes`: what its task holds besides the message. */
export const IN_FLIGHT_FLOOR = 64 * 1024;
const IN_FLIGHT_PER_PARSE = 48 * 1024 * 1024;

/** What a parse thread answers (parse-thread.mjs). */
type ThreadAnswer = { readonly input: unknown } | { readonly refused: string };

const THREAD = new URL('./parse-thread.mjs', import.meta.url).href;

/**
 * The parse module a thread imports. An agent names its source file (`./parse-parts.ts`); compiled
 * (tsc with rewriteRelativeImportExtensions, as `pnpm build` and the published packages are) the
 * same code sits beside it as `.js` and no `.ts` is there, so the `.js` is the one to load: a built
 * agent's threads then run plain JavaScript, no loader needed.
 */
export function builtOrSource(url: string | URL): string {
  const href = String(url);
  const match = /\.([cm]?)ts$/.exec(href);
  if (match === null || !href.startsWith('file:') || existsSync(new URL(href))) return href;
  const built = `${href.slice(0, -match[0].length)}.${match[1]}js`;
  return existsSync(new URL(built)) ? built : href;
}

/**
 * One place among the parses an agent takes at once. The request that brings a message takes it,
 * and the parse it leads to holds it too: the place is free again once both are done, so a send
 * that answers before its parse ends (returnImmediately) still counts until the parse does. The
 * request's own hold ends when its parse has ended or its answer is sent, whichever comes first:
 * a task waiting for its authority, or for a slow disk, after its message was read is not reading
 * it (it held the place until its answer before, and four such tasks on two cores had every new
 * message answered "busy reading 4 other messages" while none was being read). What the message
 * costs in memory until then is counted apart (`InputReader.carry`).
 */
export class ParseTicket {
  private holders = 1;
  private requestHolds = true;

  constructor(private readonly release: () => void) {}

  hold(): void {
    if (this.holders > 0) this.holders += 1;
  }

  drop(): void {
    if (this.holders === 0) return;
    this.holders -= 1;
    if (this.holders === 0) this.release();
  }

  /** The request's own hold ends (its parse ended, or its answer was sent); once. */
  requestDone(): void {
    if (!this.requestHolds) return;
    this.requestHolds = false;
    this.drop();
  }
}

const wholeNumber = (value: number, what: string, least: number): number => {
  if (!Number.isInteger(value) || value < least) throw new RangeError(`${what} must be a whole number of at least ${least}, and ${value} is not.`);
  return value;
};

/**
 * The one way the runtime turns a message into an agent's input. For an agent that names its parse
 * module (`LearnableAgent.parseModule`), a message that costs 16 kB or more to read (`readingCost`) is read in a pool of worker
 * threads (piscina), so that a 37 MB email or a 5,000-row sheet never holds up /healthz or another
 * request; a smaller one, and any message of an agent that names none, is read on the event loop. Either way, at most `maxParses` messages are read or waiting at
 * once: `admit` says whether a request that brings a new one may go on.
 */
export class InputReader<Input> {
  readonly threads: number;
  readonly maxParses: number;
  readonly inThreadFrom: number;
  readonly inFlightBytes: number;
  private readonly pool: Piscina<unknown, ThreadAnswer> | undefined;
  private readonly module: ParseModule | undefined;
  private taken = 0;
  /** Messages taken and not yet answered, and the bytes they count (see `carry`). */
  private carriedMessages = 0;
  private carriedBytes = 0;
  /**
   * The ticket of each admitted request, by the request's headers object: the one thing that
   * reaches, as the same object, both the admission in front of the SDK and the call context the
   * SDK builds for the executor (its context builder is handed `req.headers`). An AsyncLocalStorage
   * carried it before; on Node 20 an active one runs an async hook for every promise in the process,
   * which cost more per message than the agent's own reading (BENCHMARKS.md, runtime overhead).
   */
  private readonly admitted = new WeakMap<object, ParseTicket>();

  constructor(
    private readonly agent: Pick<LearnableAgent<Input, unknown>, 'parse' | 'parseModule'>,
    options: ParsingOptions = {},
  ) {
    const threads = wholeNumber(options.threads ?? availableParallelism(), 'The number of parse threads', 0);
    this.module = threads > 0 && agent.parseModule ? { ...agent.parseModule, url: builtOrSource(agent.parseModule.url) } : undefined;
    this.threads = this.module ? threads : 0;
    this.maxParses = wholeNumber(options.maxParses ?? Math.max(2, 2 * threads), 'The number of messages read at once', 1);
    this.inThreadFrom = wholeNumber(options.inThreadFrom ?? 16_000, 'The size from which a message is read in a thread', 0);
    this.inFlightBytes = wholeNumber(
      options.inFlightBytes ?? this.maxParses * IN_FLIGHT_PER_PARSE,
      'The bytes of messages taken and not yet answered',
      IN_FLIGHT_FLOOR,
    );
    if (this.module) {
      this.pool = new Piscina({
        filename: THREAD,
        // Threads start with the first large message and stay while such messages keep coming: an
        // agent that reads none loads nothing, and a busy one loads each thread once.
        minThreads: 0,
        maxThreads: threads,
        idleTimeout: 10 * 60_000,
        // The event loop answers /healthz and every other request; a thread that reads a message
        // yields the core to it (Linux: the thread's nice value, through @napi-rs/nice).
        niceIncrement: 10,
      });
    }
  }

  /** Parses under way or waiting, and how many are taken at once; messages taken and not yet answered, and their bytes. */
  get load(): {
    readonly parsing: number;
    readonly maxParses: number;
    readonly threads: number;
    readonly inThreadFrom: number;
    readonly inFlight: { readonly messages: number; readonly bytes: number; readonly maxBytes: number };
  } {
    return {
      parsing: this.taken,
      maxParses: this.maxParses,
      threads: this.threads,
      inThreadFrom: this.inThreadFrom,
      inFlight: { messages: this.carriedMessages, bytes: this.carriedBytes, maxBytes: this.inFlightBytes },
    };
  }

  /**
   * Count a message of `bytes` as taken until the returned function is called (its answer sent),
   * or undefined when it does not fit in `inFlightBytes` with those taken already. The first
   * message always fits, whatever its size (the body limit bounds it).
   */
  carry(bytes: number): (() => void) | undefined {
    const counted = Math.max(IN_FLIGHT_FLOOR, bytes);
    if (this.carriedMessages > 0 && this.carriedBytes + counted > this.inFlightBytes) return undefined;
    this.carriedMessages += 1;
    this.carriedBytes += counted;
    let carried = true;
    return () => {
      if (!carried) return;
      carried = false;
      this.carriedMessages -= 1;
      this.carriedBytes -= counted;
    };
  }

  /** A place for the message a request brings, or undefined when every place is taken. */
  admit(): ParseTicket | undefined {
    if (this.taken >= this.maxParses) return undefined;
    this.taken += 1;
    return new ParseTicket(() => {
      this.taken -= 1;
    });
  }

  /** A request admitted with this ticket, known by its headers object (see `admitted`). */
  hand(request: object, ticket: ParseTicket): void {
    this.admitted.set(request, ticket);
  }

  /** The ticket of the request these headers belong to, if it was admitted. */
  ticketOf(request: object | undefined): ParseTicket | undefined {
    return request === undefined ? undefined : this.admitted.get(request);
  }

  /**
   * The agent's input from a message's parts, or InputRefused with the agent's sentence. With the
   * ticket of the request that brought the message, the parse holds its place until it ends.
   */
  async parse(parts: InputPart[], ticket?: ParseTicket): Promise<Input> {
    const cost = readingCost(parts, this.inThreadFrom);
    const inThread = this.pool !== undefined && this.module !== undefined && cost >= this.inThreadFrom;
    return inSpan(
      'learnables.parse',
      { 'learnables.parse.thread': inThread, 'learnables.parse.cost_bytes': cost, 'learnables.parse.parts': parts.length },
      () => this.parseNow(parts, inThread, ticket),
    );
  }

  private async parseNow(parts: InputPart[], inThread: boolean, ticket?: ParseTicket): Promise<Input> {
    ticket?.hold();
    try {
      if (!inThread || this.pool === undefined || this.module === undefined) return await this.agent.parse(parts);
      // The bytes move to the thread rather than being copied (each part's buffer is its own).
      const transferList = parts.flatMap((part) =>
        part.kind === 'file' && part.bytes.byteOffset === 0 && part.bytes.byteLength === part.bytes.buffer.byteLength ? [part.bytes.buffer as ArrayBuffer] : [],
      );
      const answer = await this.pool.run(
        // The trace context travels with the message (W3C traceparent), for a thread that traces.
        { module: String(this.module.url), exportName: this.module.name, parts, options: this.module.options, trace: traceCarrier() },
        { transferList },
      );
      if ('refused' in answer) throw new InputRefused(answer.refused);
      return answer.input as Input;
    } finally {
      ticket?.drop();
      ticket?.requestDone();
    }
  }

  /**
   * Whether the parse threads can read a message: undefined when they can (or the agent reads on
   * the event loop), else a sentence. A pool reading messages now is evidently alive, and one with
   * no thread yet starts them with the first large message (readiness starts none: a thread costs
   * its memory and its loader); an idle pool's threads are each asked to run an empty task.
   */
  async probe(): Promise<string | undefined> {
    if (this.pool === undefined) return undefined;
    if (this.closed) return 'its parse threads were closed (the agent is stopping), so it cannot read a large message.';
    if (this.taken > 0 || this.pool.threads.length === 0) return undefined;
    try {
      const answer = (await this.pool.run({ probe: true })) as unknown as { probe?: unknown };
      return answer.probe === true ? undefined : 'a parse thread answered something other than the probe it was sent.';
    } catch (error) {
      return `its parse threads do not start or do not answer (${(error as Error).message}), so it cannot read a message of 16 kB or more.`;
    }
  }

  private closed = false;

  async close(): Promise<void> {
    this.closed = true;
    await this.pool?.destroy();
  }
}
