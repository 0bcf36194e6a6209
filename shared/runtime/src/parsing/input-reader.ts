import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { InputRefused } from '@learnables/learnable';
import type { InputPart } from '@learnables/learnable';
import type { LearnableAgent, ParseModule } from '../learnable-agent.ts';
import { boundedJson } from '../storage/kept-input.ts';

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
   * Messages smaller than this many bytes are read on the event loop: they take milliseconds, less
   * than handing them to a thread (and a thread that no message needs is never started).
   * Default 16 kB: every ordinary email and manifest stays in, a 32 kB sheet with a cell in column
   * XFD (seconds of exceljs) goes out. 0 sends every message to a thread.
   */
  readonly inThreadFrom?: number;
}

/** Bytes of a message's parts, counted no further than `enough`. */
function sizeOf(parts: readonly InputPart[], enough: number): number {
  let size = 0;
  for (const part of parts) {
    if (part.kind === 'file') size += part.bytes.byteLength;
    else if (part.kind === 'text') size += part.text.length;
    else size += boundedJson(part.data, enough)?.length ?? enough;
    if (size >= enough) return size;
  }
  return size;
}

/** What a parse thread answers (parse-thread.mjs). */
type ThreadAnswer = { readonly input: unknown } | { readonly refused: string };

const THREAD = new URL('./parse-thread.mjs', import.meta.url).href;

/**
 * One place among the parses an agent takes at once. The request that brings a message takes it,
 * and the parse it leads to holds it too: the place is free again once both are done, so a send
 * that answers before its parse ends (returnImmediately) still counts until the parse does.
 */
export class ParseTicket {
  private holders = 1;

  constructor(private readonly release: () => void) {}

  hold(): void {
    if (this.holders > 0) this.holders += 1;
  }

  drop(): void {
    if (this.holders === 0) return;
    this.holders -= 1;
    if (this.holders === 0) this.release();
  }
}

const wholeNumber = (value: number, what: string, least: number): number => {
  if (!Number.isInteger(value) || value < least) throw new RangeError(`${what} must be a whole number of at least ${least}, and ${value} is not.`);
  return value;
};

/**
 * The one way the runtime turns a message into an agent's input. For an agent that names its parse
 * module (`LearnableAgent.parseModule`), a message of 16 kB or more is read in a pool of worker
 * threads (piscina), so that a 37 MB email or a 5,000-row sheet never holds up /healthz or another
 * request; a smaller one, and any message of an agent that names none, is read on the event loop. Either way, at most `maxParses` messages are read or waiting at
 * once: `admit` says whether a request that brings a new one may go on.
 */
export class InputReader<Input> {
  readonly threads: number;
  readonly maxParses: number;
  readonly inThreadFrom: number;
  private readonly pool: Piscina<unknown, ThreadAnswer> | undefined;
  private readonly module: ParseModule | undefined;
  private taken = 0;
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
    this.module = threads > 0 ? agent.parseModule : undefined;
    this.threads = this.module ? threads : 0;
    this.maxParses = wholeNumber(options.maxParses ?? Math.max(2, 2 * threads), 'The number of messages read at once', 1);
    this.inThreadFrom = wholeNumber(options.inThreadFrom ?? 16_000, 'The size from which a message is read in a thread', 0);
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

  /** Parses under way or waiting, and how many are taken at once. */
  get load(): { readonly parsing: number; readonly maxParses: number; readonly threads: number; readonly inThreadFrom: number } {
    return { parsing: this.taken, maxParses: this.maxParses, threads: this.threads, inThreadFrom: this.inThreadFrom };
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
    ticket?.hold();
    try {
      if (this.pool === undefined || this.module === undefined || sizeOf(parts, this.inThreadFrom) < this.inThreadFrom) return await this.agent.parse(parts);
      // The bytes move to the thread rather than being copied (each part's buffer is its own).
      const transferList = parts.flatMap((part) =>
        part.kind === 'file' && part.bytes.byteOffset === 0 && part.bytes.byteLength === part.bytes.buffer.byteLength ? [part.bytes.buffer as ArrayBuffer] : [],
      );
      const answer = await this.pool.run(
        { module: String(this.module.url), exportName: this.module.name, parts, options: this.module.options },
        { transferList },
      );
      if ('refused' in answer) throw new InputRefused(answer.refused);
      return answer.input as Input;
    } finally {
      ticket?.drop();
    }
  }

  async close(): Promise<void> {
    await this.pool?.destroy();
  }
}
