// Preview's quick way (the email agent's Decider, evidence kept in the runtime's PreviewMemory,
// only the messages a lesson's customer can reach decided again) must decide exactly as the plain
// way (`read` twice per message). Both run here over the same recorded tasks — every email fixture
// and a few hundred generated messages — for lessons of every kind, before and after the live
// version moves (lessons taught, a lesson retracted, an entry added), cold and warm, and with a
// memory too small to keep everything. And over heavy sheets (the manifest agent), whose journaled
// inputs preview parses in pieces (parseInPieces, issue 34: one JSON.parse of a 1.46 MB sheet held
// /healthz 73-277 ms): both ways decide exactly as on inputs parsed whole by JSON.parse.
import { readdirSync, readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthorityClient } from '@learnables/authority';
import { customerMarksKind, emailAgent } from '@learnables/email-agent';
import { columnMappingKind, manifestAgent } from '@learnables/manifest-agent';
import type { SheetInput } from '@learnables/manifest-agent';
import type { PreviewResult } from '@learnables/protocol';
import { PreviewMemory, previewLesson, warmPreview } from '@learnables/runtime';
import type { PreviewDeps } from '@learnables/runtime';
import type { LoopStack } from './support/loop-stack.ts';
import { sendFile, startLoop } from './support/loop-stack.ts';

const FIXTURES = fileURLToPath(new URL('../fixtures/email/', import.meta.url));

/** A small deterministic generator, so a failure names a message that can be made again. */
function generator(seed: number) {
  let state = seed;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  return {
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    digits: (n: number) => String(Math.floor(next() * 10 ** n)).padStart(n, '0'),
  };
}

/**
 * Messages that meet the seed's marks in every place they look (from, subject, body, attachments),
 * alone, together (ties and clear winners), through a forward, or not at all.
 */
function generatedMessages(count: number): Buffer[] {
  const g = generator(20261201);
  const senders = [
    'billing@northgate-motors.example',
    'orders@brightwell-foods.example',
    'qa@kestrel-pharma.example',
    'asn@harborlane.example',
    'ops@alder-chem.example',
    'dispatch@alderchem-logistics.example',
    'returns@corvid.example',
    'booking@fjordseafood.example',
    'noreply@portal.example',
    'bookings@shared-forwarder.example',
    'someone@elsewhere.example',
    'desk@origin.example',
    'billing@origin.example',
  ];
  const subjects = [
    () => `Pre-alert NGM/2026/${g.digits(4)}`,
    () => `Chilled pallets BW-${g.digits(5)}`,
    () => `Call-off KP/2026/${g.digits(4)}`,
    () => `Customs hold CVE-${g.digits(6)}`,
    () => `Paper reels TWP${g.digits(7)}`,
    () => `Fwd: delivery note`,
    () => 'Booking for Thursday',
    () => `Pre-alert PA-2026-${g.digits(4)}`,
    () => 'Port Community System maintenance',
  ];
  const bodies = [
    () => 'Please book in the pallets below.',
    () => `Reference QS/2026/${g.digits(3)} for the stone slabs.`,
    () => `Our ref KP/2026/${g.digits(4)}; see the certificate attached.`,
    () => `TWP${g.digits(7)} arrives on Monday.`,
    () => '---------- Forwarded message ---------\nFrom: Billing <billing@northgate-motors.example>\nSubject: invoice\n\nSee attached.',
    () => 'Brightwell Foods asked us to send this on.',
  ];
  return Array.from({ length: count }, () => {
    const attachment = g.pick([undefined, `ALC-2026-${g.digits(4)}`, 'nothing to see']);
    const boundary = `b-${randomUUID()}`;
    const lines = [
      `From: Someone <${g.pick(senders)}>`,
      'To: intake@warehouse.example',
      `Subject: ${g.pick(subjects)()}`,
      'Date: Tue, 01 Dec 2026 08:00:00 +0000',
      `Message-ID: <${randomUUID()}@mail.example>`,
      'MIME-Version: 1.0',
    ];
    const body = g.pick(bodies)();
    if (attachment === undefined) lines.push('Content-Type: text/plain; charset=utf-8', '', body, '');
    else {
      lines.push(
        `Content-Type: multipart/mixed; boundary="${boundary}"`,
        '',
        `--${boundary}`,
        'Content-Type: text/plain; charset=utf-8',
        '',
        body,
        `--${boundary}`,
        'Content-Type: text/csv; name="lines.csv"',
        'Content-Disposition: attachment; filename="lines.csv"',
        '',
        `reference,qty\n${attachment},4`,
        `--${boundary}--`,
        '',
      );
    }
    return Buffer.from(lines.join('\r\n'));
  });
}

const lesson = (entry: string, pattern: string, where = 'from') => ({
  lesson: { collection: 'customers', entry, value: { pattern, where }, taughtBy: 'dana', reason: 'preview test' },
});
const newEntry = (label: string) => ({ newEntry: { collection: 'customers', newEntry: { label }, taughtBy: 'dana', reason: 'preview test' } });

/** Lessons of every kind: claiming another customer's mail, settling strangers, ties, each place, an 'any' mark, a known one, a new entry. */
const TRIED = [
  lesson('northgate', 'brightwell-foods\\.example'),
  lesson('harbor-lane', '<someone@elsewhere\\.example>'),
  lesson('corvid-electronics', '\\bNGM/2026/\\d+', 'subject'),
  lesson('fjord-seafood', 'pallets', 'body'),
  lesson('marigold-cosmetics', 'ALC-\\d{4}', 'attachments'),
  lesson('tidewater-paper', 'origin\\.example', 'any'),
  lesson('pinnacle-audio', 'Thursday', 'subject'),
  lesson('northgate', '@northgate-motors\\.example>'),
  newEntry('Harbour & Sons Ltd'),
];

describe('preview, the quick way and the plain way, over the email agent', () => {
  let stack: LoopStack;
  let authority: AuthorityClient;
  let scope: { tenant: string; owner: string };
  let sent = 0;
  beforeAll(async () => {
    stack = await startLoop(emailAgent);
    authority = new AuthorityClient({ url: stack.authority.url, token: 'agent-token', kinds: [customerMarksKind] });
    const fixtures = readdirSync(FIXTURES).filter((name) => name.endsWith('.eml'));
    for (const name of fixtures) await sendFile(stack.client, readFileSync(`${FIXTURES}${name}`), 'message/rfc822', name);
    for (const message of generatedMessages(240)) await sendFile(stack.client, message, 'message/rfc822', 'message.eml');
    sent = fixtures.length + 240;
    const row = await stack.agent.database.db.selectFrom('learnables_tasks').select(['tenant', 'owner']).executeTakeFirstOrThrow();
    scope = { tenant: row.tenant, owner: row.owner };
  }, 300_000);
  afterAll(async () => stack.close());

  const deps = (memory?: PreviewMemory): PreviewDeps<unknown, unknown> => ({
    agent: (memory ? emailAgent : { ...emailAgent, decider: undefined }) as never,
    authority,
    journal: stack.agent.journal,
    ledger: stack.agent.ledger,
    // Both ways try every recent task: the comparison is of what they decide, not of a budget's end.
    budget: { milliseconds: Number.POSITIVE_INFINITY },
    ...(memory && { memory }),
  });
  const plain = (params: unknown) => previewLesson(deps(), params, scope);
  const quick = (memory: PreviewMemory, params: unknown) => previewLesson(deps(memory), params, scope);

  /** Each lesson previewed by the plain way and by each quick one: the same answers, every field. */
  async function agreeOnAll(memories: PreviewMemory[]): Promise<PreviewResult[]> {
    const answers: PreviewResult[] = [];
    for (const params of TRIED) {
      const expected = await plain(params);
      for (const memory of memories) expect(await quick(memory, params), JSON.stringify(params)).toEqual(expected);
      answers.push(expected);
    }
    return answers;
  }

  it('decides exactly as the plain way, for every kind of lesson, cold and warm, and with a memory too small to keep it all', async () => {
    const warm = new PreviewMemory();
    const tiny = new PreviewMemory(40_000);
    const answers = await agreeOnAll([warm, warm, new PreviewMemory(), tiny]);
    // The lessons are worth comparing on: they settle, unsettle and leave open, across many tasks. (One
    // mark is one point, so no single email lesson moves a message from one customer to another.)
    expect(answers[0]!.examined).toBeGreaterThan(sent - 10);
    const total = (effect: 'settles' | 'unsettles' | 'stillOpen') => answers.reduce((sum, a) => sum + a.counts[effect], 0);
    for (const effect of ['settles', 'unsettles', 'stillOpen'] as const) expect(total(effect), effect).toBeGreaterThan(20);
    expect(answers[7]).toMatchObject({ changed: false });
    // The warm memory kept every message; the tiny one only some.
    expect(warm.size).toBeGreaterThan(sent - 10);
    expect(tiny.size).toBeLessThan(warm.size / 2);
    expect(tiny.bytes).toBeLessThanOrEqual(40_000);
  }, 300_000);

  it('decides exactly as the plain way from a memory filled ahead of the first preview (warmPreview, as the agent does at start), before and after the live version moves', async () => {
    const warmed = new PreviewMemory();
    expect(await warmPreview(deps(warmed))).toBeGreaterThan(sent - 10);
    expect(warmed.size).toBeGreaterThan(sent - 10);
    await agreeOnAll([warmed]);
    await authority.postLesson(lesson('kestrel-pharma', 'Call-off KP/', 'subject').lesson);
    await agreeOnAll([warmed]);
    // The running agent filled its own at start (nothing to read then: it had no tasks yet).
    expect(await stack.agent.previewWarmed).toBe(0);
  }, 300_000);

  it('still decides exactly as the plain way after the live version moves: lessons taught, one retracted, an entry added', async () => {
    const warm = new PreviewMemory();
    await agreeOnAll([warm]);
    const teach = (params: ReturnType<typeof lesson>) => authority.postLesson(params.lesson);
    const claimed = await teach(lesson('northgate', 'brightwell-foods\\.example'));
    await teach(lesson('quarry-stone', 'stone slabs', 'body'));
    await agreeOnAll([warm, new PreviewMemory()]);
    await authority.retract({ collection: 'customers', version: claimed.version, author: 'sam', reason: 'wrong' });
    await authority.addEntry({ collection: 'customers', newEntry: { label: 'Ironbark Outdoor Two' }, taughtBy: 'dana', reason: 'new' });
    await agreeOnAll([warm, new PreviewMemory()]);
  }, 300_000);
});

/** A manifest CSV of 256 headings and `rows` filled rows (550: 1.46 MB journaled; 3,500: cut to 749 rows, 2.0 MB), its first heading `waybill`. */
function heavyCsv(rows: number, waybill: string, weights: (row: number) => string): Buffer {
  const heading = [waybill, 'Weight (kg)', 'Pieces', ...Array.from({ length: 253 }, (_, at) => `Heading ${at + 4}`)].join(',');
  const lines = Array.from({ length: rows }, (_, row) =>
    ['176-12345675', weights(row), '3', ...Array.from({ length: 253 }, (_, at) => (at === 3 ? String(10 + (row % 7)) : `r${row}c${at}`))].join(','),
  );
  return Buffer.from([heading, ...lines].join('\n'));
}

const mapping = (entry: string, column: string) => ({ lesson: { collection: 'mappings', entry, value: { column }, taughtBy: 'dana', reason: 'preview test' } });

describe('preview over heavy sheets, their journaled inputs parsed in pieces', () => {
  let stack: LoopStack;
  let authority: AuthorityClient;
  let scope: { tenant: string; owner: string };
  /** Each sheet's input as JSON.parse makes it whole from its journal row (the way before), by file name. */
  const whole = new Map<string, unknown>();
  beforeAll(async () => {
    stack = await startLoop(manifestAgent);
    authority = new AuthorityClient({ url: stack.authority.url, token: 'agent-token', kinds: [columnMappingKind] });
    const sheets: [string, Buffer][] = [
      ['heaviest.csv', heavyCsv(3_500, 'Waybill', () => '12.5')],
      ['heavy-0.csv', heavyCsv(550, 'Waybill', () => '12.5')],
      ['heavy-1.csv', heavyCsv(550, 'Consignment', (row) => String(row % 40))],
      ['heavy-2.csv', heavyCsv(550, 'Waybill', () => 'about twelve')],
      ['heavy-3.csv', heavyCsv(550, 'Ref', () => '')],
    ];
    for (const [name, bytes] of sheets) await sendFile(stack.client, bytes, 'text/csv', name);
    const row = await stack.agent.database.db.selectFrom('learnables_tasks').select(['tenant', 'owner']).executeTakeFirstOrThrow();
    scope = { tenant: row.tenant, owner: row.owner };
    const ids = await stack.agent.ledger.recent(scope, 0, 100);
    for (const input of (await stack.agent.journal.recordedFor(ids, 'parse')).values()) whole.set((input as SheetInput).filename, input);
    const sizes = [...(await stack.agent.journal.sizesFor(ids, 'parse')).values()];
    expect(sizes.filter((bytes) => bytes > 1_400_000)).toHaveLength(sheets.length);
  }, 300_000);
  afterAll(async () => stack?.close());

  const deps = (agent: unknown, memory?: PreviewMemory): PreviewDeps<unknown, unknown> => ({
    agent: agent as never,
    authority,
    journal: stack.agent.journal,
    ledger: stack.agent.ledger,
    budget: { milliseconds: Number.POSITIVE_INFINITY },
    ...(memory && { memory }),
  });
  /** The plain way on the sheets as parsed whole: whatever preview hands `read`, it reads the sheet of that name from `whole`. */
  const onWhole = {
    ...manifestAgent,
    decider: undefined,
    read: (input: SheetInput, pinned: never) => manifestAgent.read(whole.get(input.filename) as SheetInput, pinned),
  };

  it('decides exactly as on inputs parsed whole, the plain way and the quick way, and never parses more than a piece at once', async () => {
    const memory = new PreviewMemory();
    const tried = [
      mapping('weight', 'Heading 7'),
      mapping('waybill', 'Consignment'),
      mapping('waybill', 'Ref'),
      mapping('pieces', 'Heading 9'),
      mapping('weight', 'Weight (kg)'),
    ];
    let moved = 0;
    for (const params of tried) {
      const expected = await previewLesson(deps(onWhole), params, scope);
      // Every JSON.parse while the pieces are read, by its length: none is of a whole sheet.
      const parse = JSON.parse;
      let longest = 0;
      JSON.parse = ((text: string, reviver?: Parameters<typeof parse>[1]) => {
        longest = Math.max(longest, text.length);
        return parse(text, reviver);
      }) as typeof JSON.parse;
      let plain: PreviewResult;
      let quick: PreviewResult;
      try {
        plain = await previewLesson(deps({ ...manifestAgent, decider: undefined }), params, scope);
        quick = await previewLesson(deps(manifestAgent, memory), params, scope);
      } finally {
        JSON.parse = parse;
      }
      expect(longest, 'the longest text given to JSON.parse').toBeLessThanOrEqual(64 * 1024 + 2);
      expect(plain, JSON.stringify(params)).toEqual(expected);
      expect(quick, JSON.stringify(params)).toEqual(expected);
      expect(expected).toMatchObject({ recent: 5, tried: 5, examined: 5 });
      moved += expected.examples.length;
    }
    // The lessons are worth comparing on: they move findings of these sheets.
    expect(moved).toBeGreaterThan(5);
  }, 300_000);
});
