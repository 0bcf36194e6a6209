// learnables-check: test any A2A agent that claims the learnables extension, over plain HTTP.
// Each check is named in catalog.ts with the SPEC.md section it enforces; this file runs them in
// the order their evidence needs (reread and preview before teaching, pinning after, retraction
// last) and reports them in catalog order. The checks of settling and undoing (none, preview,
// entries, retraction) are in settle-and-undo.ts.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { LEARNABLES_URI, fieldsToRender } from '@learnables/protocol';
import type { CheckId, CheckResult, Section } from './catalog.ts';
import { CHECK_IDS, Recorder, SECTIONS, sectionOf } from './catalog.ts';
import { httpRefusalProblems, jsonRpcRefusalProblems } from './refusal-checks.ts';
import type { CheckOptions, Input, Json, Run } from './run-context.ts';
import {
  COMPLETED,
  INPUT_REQUIRED,
  TAUGHT_BY,
  beforeWriting,
  countTasks,
  describeError,
  describeReadings,
  errorText,
  isObject,
  rereadTask,
  send,
  shown,
  snapshot,
  stateOf,
  suggestedLesson,
  teachLesson,
  text,
  withTenant,
  write,
  wrote,
} from './run-context.ts';
import { addEntries, noneAnswer, previewAgrees, previewReadOnly, retraction } from './settle-and-undo.ts';
import { correction } from './correction-checks.ts';
import type { SignatureVerdict } from './card-signature.ts';
import { verifyCardSignatures } from './card-signature.ts';
import { validate } from './validate.ts';
import type { RpcAnswer, WireMessage, WireTask } from './wire.ts';
import { brief, createWire, echoes, extensionMetadata, partForFile, taskOf, userMessage, wordsOf } from './wire.ts';

export type { CheckOptions };

export interface Report {
  readonly agent: string;
  readonly ok: boolean;
  readonly counts: { readonly pass: number; readonly fail: number; readonly skip: number };
  /** Where the input came from, or undefined when there was none. */
  readonly input: string | undefined;
  readonly checks: readonly CheckResult[];
  /**
   * Set when no input was given and nothing the card offers made the agent ask: the sentence saying
   * what input the run needs. The input-dependent checks did not run, so the run is not `ok`.
   */
  readonly needsInput: string | undefined;
  /** What the run left behind or undid, and anything else worth knowing. */
  readonly notes: readonly string[];
  readonly durationMs: number;
}

/** Check an agent; never throws for what the agent does, only reports it. */
export async function checkAgent(agentUrl: string, options: CheckOptions = {}): Promise<Report> {
  const started = Date.now();
  const run: Run = {
    wire: createWire({ token: options.token, timeoutMs: options.timeoutMs ?? 30_000, fetch: options.fetch }),
    r: new Recorder(options.onCheck),
    notes: [],
    options,
    tag: randomBytes(3).toString('hex'),
    methods: {},
    examples: [],
    candidates: givenInput(options),
    added: [],
    writes: [],
  };
  const sections: [Section[], () => Promise<void>][] = [
    [['card'], () => card(run, agentUrl)],
    [['activation'], () => activation(run)],
    [['question'], () => question(run)],
    [['reread'], () => reread(run)],
    [['none'], () => noneAnswer(run)],
    [['preview'], () => previewReadOnly(run)],
    [['question'], () => teachSuggestion(run)],
    [['preview'], () => previewAgrees(run, 'lesson')],
    [['pinning'], () => pinning(run)],
    [['correction'], () => correction(run)],
    [['entries'], () => addEntries(run)],
    [['preview'], () => previewAgrees(run, 'entry')],
    [['retraction'], () => retraction(run)],
    [['refusals'], () => refusals(run)],
  ];
  for (const [names, section] of sections) {
    try {
      await section();
    } catch (error) {
      // A network failure or timeout mid-section: the check under way cannot be decided.
      // The first undecided check of the section is the one under way: it fails; the rest are skipped.
      const reason = `a request to the agent failed (${errorText(error)})`;
      const current = CHECK_IDS.find((id) => names.includes(sectionOf(id)) && !run.r.decided(id));
      if (current) run.r.fail(current, `expected an answer, but ${reason}`);
      run.r.skipRest(`Skipped because ${reason}.`, ...names);
    }
  }
  await cleanUp(run);
  run.r.skipRest('Not reached.');
  const checks = run.r.all();
  const counts = {
    pass: checks.filter((c) => c.status === 'PASS').length,
    fail: checks.filter((c) => c.status === 'FAIL').length,
    skip: checks.filter((c) => c.status === 'SKIP').length,
  };
  return {
    agent: agentUrl,
    ok: counts.fail === 0 && run.needsInput === undefined,
    needsInput: run.needsInput,
    counts,
    input:
      run.input?.source ??
      (run.candidates.length > 0 ? `${run.candidates.map((c) => c.source).join(', ')}${run.notAsked ? `, which did not make the agent ask` : ''}` : undefined),
    checks,
    notes: run.notes,
    durationMs: Date.now() - started,
  };
}

// ---------------------------------------------------------------------------------------------
// card (§1)

async function card(run: Run, agentUrl: string): Promise<void> {
  const { r, wire } = run;
  const base = agentUrl.replace(/\/+$/, '');
  const cardUrl = /\.json$/.test(base) ? base : `${base}/.well-known/agent-card.json`;
  let answer: Awaited<ReturnType<typeof wire.http>>;
  try {
    answer = await wire.http(cardUrl, { activate: false, auth: false });
  } catch (error) {
    r.fail('card.fetch', `expected a JSON agent card from GET ${cardUrl}, but the request failed (${errorText(error)})`);
    r.skipRest('Skipped: there is no card to read the extension from.');
    return;
  }
  if (answer.status !== 200 || !isObject(answer.body)) {
    r.fail('card.fetch', `expected a JSON agent card from GET ${cardUrl} (A2A-Version: 1.0), got HTTP ${answer.status} ${brief(answer.text, 120)}`);
    r.skipRest('Skipped: there is no card to read the extension from.');
    return;
  }
  const agentCard = answer.body;
  r.pass('card.fetch', `GET ${cardUrl} with A2A-Version: 1.0 answered a JSON card for ${brief(agentCard.name)}`);
  const signed = await verifyCardSignatures(agentCard, cardUrl, wire, run.options.cardKey).catch(
    (error: unknown): SignatureVerdict => ({ status: 'fail', reason: `expected the card's signatures to be checkable, but ${errorText(error)}` }),
  );
  if (signed.status === 'pass') r.pass('card.signature', signed.reason);
  else if (signed.status === 'fail') r.fail('card.signature', signed.reason);
  else r.skip('card.signature', signed.reason);

  const interfaces = (Array.isArray(agentCard.supportedInterfaces) ? agentCard.supportedInterfaces : []).filter(isObject);
  const find = (binding: string) =>
    interfaces.find((i) => i.protocolBinding === binding && String(i.protocolVersion ?? '').startsWith('1.') && typeof i.url === 'string');
  const jsonrpc = find('JSONRPC');
  const rest = find('HTTP+JSON');
  if (rest) run.rest = { url: String(rest.url).replace(/\/+$/, ''), tenant: typeof rest.tenant === 'string' ? rest.tenant : '' };
  if (jsonrpc) {
    run.jsonrpc = { url: String(jsonrpc.url), tenant: typeof jsonrpc.tenant === 'string' ? jsonrpc.tenant : '' };
    r.pass(
      'card.interfaces',
      `JSON-RPC 1.0 is at ${run.jsonrpc.url}${run.rest ? ` and HTTP+JSON 1.0 at ${run.rest.url}` : ', with no HTTP+JSON 1.0 interface'}`,
    );
  } else {
    const offered = interfaces.map((i) => `${String(i.protocolBinding)} ${String(i.protocolVersion)}`).join(', ') || 'none';
    r.fail(
      'card.interfaces',
      `expected a supportedInterfaces entry with protocolBinding JSONRPC and protocolVersion 1.0 (the extension's methods are served on JSON-RPC), got ${offered}`,
    );
  }

  run.examples = (Array.isArray(agentCard.skills) ? agentCard.skills : [])
    .filter(isObject)
    .flatMap((skill) => (Array.isArray(skill.examples) ? skill.examples : []))
    .filter((example): example is string => typeof example === 'string' && example.trim() !== '');

  const capabilities = isObject(agentCard.capabilities) ? agentCard.capabilities : {};
  const extensions = (Array.isArray(capabilities.extensions) ? capabilities.extensions : []).filter(isObject);
  const ours = extensions.filter((e) => e.uri === LEARNABLES_URI);
  if (ours.length === 0) {
    const uris = extensions.map((e) => String(e.uri)).join(', ') || 'none';
    r.fail('card.extension-once', `expected one entry with uri ${LEARNABLES_URI} in capabilities.extensions, got none (declared: ${uris})`);
    r.skipRest('Skipped: the card does not declare the learnables extension.');
    return;
  }
  r.verdict(
    'card.extension-once',
    ours.length === 1,
    `the card declares ${LEARNABLES_URI} once in capabilities.extensions`,
    `expected ${LEARNABLES_URI} exactly once in capabilities.extensions, got ${ours.length} entries`,
  );
  const entry = ours[0]!;
  if (entry.required === false) r.pass('card.required-false', 'the entry says required: false, so a client that ignores the extension loses nothing');
  else if (entry.required === undefined) r.pass('card.required-false', 'the entry leaves required out, which the A2A wire (proto3 JSON) reads as false');
  else r.fail('card.required-false', `expected required: false on the learnables entry, got required: ${brief(entry.required)}`);

  const params = entry.params;
  const verdict = validate('declaration', params);
  r.verdict(
    'card.declaration',
    verdict.ok,
    "the entry's params validate as a Declaration against the zod schema and schemas/declaration.json",
    `expected params to be a Declaration, but ${verdict.problems}`,
  );
  if (!isObject(params)) {
    r.skipRest('Skipped: the entry has no params object to read the declaration from.');
    return;
  }
  run.declaration = params;

  const how = params.how;
  r.verdict(
    'card.how',
    typeof how === 'string' && /\S/.test(how),
    `the how sentence reads ${brief(how, 120)}`,
    `expected how to be a non-empty sentence, got ${brief(how)}`,
  );
  r.verdict(
    'card.decided-by',
    params.decidedBy === 'rules' || params.decidedBy === 'model' || params.decidedBy === 'hybrid',
    `the declaration is decided by ${brief(params.decidedBy)}`,
    `expected decidedBy to be "rules", "model" or "hybrid", got ${brief(params.decidedBy)}`,
  );

  const fields = params.lessonFields;
  if (!Array.isArray(fields) || fields.length === 0) {
    r.fail('card.lesson-fields', `expected lessonFields to be a non-empty array, got ${brief(fields)}`);
    r.fail('card.fields-to-render', `expected lesson fields to render, got ${brief(fields)}`);
  } else {
    const problems = fields.flatMap((field: unknown, i) => {
      const at = `field ${i + 1}${isObject(field) && typeof field.name === 'string' ? ` (${JSON.stringify(field.name)})` : ''}`;
      if (!isObject(field)) return [`${at} is not an object`];
      const missing = ['name', 'label', 'kind'].filter((key) => text(field[key]) === undefined);
      const out = missing.length > 0 ? [`${at} has no ${missing.join(', no ')}`] : [];
      if (field.kind === 'choice' && !(Array.isArray(field.choices) && field.choices.length > 0 && field.choices.every((c) => typeof c === 'string'))) {
        out.push(`${at} is a choice without choices`);
      }
      return out;
    });
    const kinds = fields.map((f: unknown) => (isObject(f) ? `${String(f.name)} (${String(f.kind)})` : '?')).join(', ');
    r.verdict(
      'card.lesson-fields',
      problems.length === 0,
      `${fields.length} lesson field${fields.length === 1 ? '' : 's'}: ${kinds}`,
      `expected well-formed lesson fields, but ${problems.join('; ')}`,
    );

    const rendered = fieldsToRender(fields);
    const mismatches = fields.flatMap((field: unknown, i) => {
      const control = rendered[i];
      if (!control) return [`field ${i + 1} got no control`];
      const declared = isObject(field) ? field : {};
      const expected = declared.kind === 'choice' && Array.isArray(declared.choices) && declared.choices.length > 0 ? 'select' : 'text';
      const out: string[] = [];
      if (typeof declared.name === 'string' && control.name !== declared.name.trim()) out.push(`field ${i + 1} rendered as ${brief(control.name)}`);
      if (control.control !== expected) out.push(`field ${i + 1} rendered as a ${control.control}, not a ${expected}`);
      return out;
    });
    r.verdict(
      'card.fields-to-render',
      rendered.length === fields.length && mismatches.length === 0,
      `${fields.length} field${fields.length === 1 ? '' : 's'} → ${rendered.length} control${rendered.length === 1 ? '' : 's'}: ${rendered.map((f) => `${f.name} as ${f.control}`).join(', ')}`,
      `expected one control per lesson field (${fields.length}), got ${rendered.length}${mismatches.length > 0 ? `; ${mismatches.join('; ')}` : ''}`,
    );
  }

  const methods = isObject(params.methods) ? params.methods : undefined;
  const rereadName = isObject(methods?.reread) ? text(methods.reread.jsonrpc) : undefined;
  const teachName = isObject(methods?.teach) ? text(methods.teach.jsonrpc) : undefined;
  const retractName = isObject(methods?.retract) ? text(methods.retract.jsonrpc) : undefined;
  const previewName = isObject(methods?.preview) ? text(methods.preview.jsonrpc) : undefined;
  const correctName = isObject(methods?.correct) ? text(methods.correct.jsonrpc) : undefined;
  const correctionsName = isObject(methods?.corrections) ? text(methods.corrections.jsonrpc) : undefined;
  run.methods = {
    ...(rereadName && { reread: rereadName }),
    ...(teachName && { teach: teachName }),
    ...(retractName && { retract: retractName }),
    ...(previewName && { preview: previewName }),
    ...(correctName && { correct: correctName }),
    ...(correctionsName && { corrections: correctionsName }),
  };
  const others = [teachName && `teach as ${teachName}`, retractName && `retract as ${retractName}`, previewName && `preview as ${previewName}`].filter(Boolean);
  r.verdict(
    'card.methods',
    rereadName !== undefined,
    `the declaration serves reread as ${rereadName} on JSON-RPC${others.length > 0 ? `, ${others.join(', ')}` : ', and offers no teach method'}`,
    `expected params.methods.reread.jsonrpc to name the reread method (§6.3: reread MUST be served on JSON-RPC under a published name), got methods ${brief(params.methods)}`,
  );
  const schemes = isObject(agentCard.securitySchemes) ? Object.keys(agentCard.securitySchemes) : [];
  const named = Object.entries(methods ?? {}).flatMap(([method, names]) =>
    isObject(names) && Array.isArray(names.security) ? names.security.map((scheme) => ({ method, scheme: String(scheme) })) : [],
  );
  const unknown = named.filter(({ scheme }) => !schemes.includes(scheme));
  r.verdict(
    'card.security',
    unknown.length === 0,
    named.length === 0
      ? 'no method of the declaration names a security scheme: each is called as core methods are'
      : `${[...new Set(named.map(({ method, scheme }) => `${method} needs ${scheme}`))].join(', ')}, and the card declares ${[...new Set(named.map(({ scheme }) => scheme))].join(', ')} in securitySchemes`,
    `expected every scheme a method's security names to be in the card's securitySchemes (${schemes.join(', ') || 'none'}), but ${unknown.map(({ method, scheme }) => `${method} names ${scheme}`).join(', ')}`,
  );
}

// ---------------------------------------------------------------------------------------------
// activation (§7)

/** The input the caller gave, read now (a missing file is the caller's error, thrown before anything is sent). */
function givenInput(options: CheckOptions): Input[] {
  if (options.input) {
    return [{ parts: [partForFile(options.input.bytes, options.input.filename, options.input.mediaType)], source: options.input.filename, fromCard: false }];
  }
  if (options.inputFile) {
    const part = partForFile(readFileSync(options.inputFile), basename(options.inputFile));
    const kind = 'text' in part ? 'text' : part.mediaType;
    return [{ parts: [part], source: `${options.inputFile} (${kind})`, fromCard: false }];
  }
  if (options.text !== undefined) return [{ parts: [{ text: options.text }], source: `--text ${brief(options.text, 60)}`, fromCard: false }];
  return [];
}

const exampleInputs = (examples: readonly string[]): Input[] =>
  examples.map((example) => ({ parts: [{ text: example }], source: `the card's example ${brief(example, 80)}`, fromCard: true }));

async function activation(run: Run): Promise<void> {
  const { r, wire } = run;
  if (!run.declaration) return; // decided by card()
  if (!run.jsonrpc) {
    r.skipRest('Skipped: the card offers no v1.0 JSON-RPC interface to talk to.');
    return;
  }
  if (run.candidates.length === 0) run.candidates = exampleInputs(run.examples);
  // Any core request will do for the header; with an input, the first one that asks is the question.
  const tries: Input[] =
    run.candidates.length > 0 ? run.candidates : [{ parts: [{ text: 'Hello from learnables-check.' }], source: 'a greeting', fromCard: true }];
  let first: RpcAnswer | undefined;
  let anyTask: WireTask | undefined;
  let last: RpcAnswer | undefined;
  for (const candidate of tries) {
    const answer = await send(run, candidate.parts, true);
    first ??= answer;
    last = answer;
    const task = taskOf(answer.result);
    anyTask ??= task;
    if (run.candidates.length > 0 && task?.status?.state === INPUT_REQUIRED) {
      run.input = candidate;
      run.asked = task;
      break;
    }
  }
  if (!run.asked && last) {
    const task = taskOf(last.result);
    run.notAsked = task ? `${stateOf(task)}${wordsOf(task.status?.message) ? `: ${brief(wordsOf(task.status?.message), 120)}` : ''}` : describeError(last);
  }

  const firstAnswer = first!;
  r.verdict(
    'activation.jsonrpc-send',
    echoes(firstAnswer.headers),
    `SendMessage with A2A-Extensions got ${LEARNABLES_URI} echoed back`,
    `expected A2A-Extensions: ${LEARNABLES_URI} in the response to an activated SendMessage, got ${shown(firstAnswer.headers)}${firstAnswer.error ? ` (and ${describeError(firstAnswer)})` : ''}`,
  );

  if (anyTask) {
    const got = await wire.rpc(run.jsonrpc.url, 'GetTask', withTenant({ id: anyTask.id }, run.jsonrpc.tenant));
    r.verdict(
      'activation.jsonrpc-get',
      echoes(got.headers),
      'GetTask with A2A-Extensions got the URI echoed back',
      `expected A2A-Extensions: ${LEARNABLES_URI} in the response to an activated GetTask, got ${shown(got.headers)}${got.error ? ` (and ${describeError(got)})` : ''}`,
    );
  } else {
    r.skip('activation.jsonrpc-get', `SendMessage returned no task to get (${describeError(firstAnswer)})`);
  }

  if (run.rest) {
    const input = run.input ?? tries[0]!;
    const path = `${run.rest.url}${run.rest.tenant ? `/${encodeURIComponent(run.rest.tenant)}` : ''}/message:send`;
    const answer = await wire.http(path, { method: 'POST', body: { message: userMessage(input.parts) } });
    r.verdict(
      'activation.rest-send',
      echoes(answer.headers),
      `POST ${path} with A2A-Extensions got the URI echoed back`,
      `expected A2A-Extensions: ${LEARNABLES_URI} in the response to an activated POST ${path}, got ${shown(answer.headers)} (HTTP ${answer.status})`,
    );
  } else {
    r.skip('activation.rest-send', 'the card declares no HTTP+JSON 1.0 interface, so there is no REST binding to check');
  }

  if (run.methods.reread && anyTask) {
    const answer = await wire.rpc(run.jsonrpc.url, run.methods.reread, withTenant({ taskId: anyTask.id }, run.jsonrpc.tenant));
    r.verdict(
      'activation.extension-method',
      echoes(answer.headers),
      `the extension method ${run.methods.reread} with A2A-Extensions got the URI echoed back`,
      `expected A2A-Extensions: ${LEARNABLES_URI} in the response to an activated ${run.methods.reread}, got ${shown(answer.headers)}${answer.error ? ` (and ${describeError(answer)})` : ''}`,
    );
  } else {
    r.skip('activation.extension-method', run.methods.reread ? 'there is no task to reread' : 'the card declares no reread method');
  }

  const plain = await send(run, (run.input ?? tries[0]!).parts, false);
  const plainTask = taskOf(plain.result);
  const answered = plainTask !== undefined || (isObject(plain.result) && 'message' in plain.result);
  if (!answered) {
    r.fail('activation.not-required', `expected SendMessage without A2A-Extensions to work (the extension is not required), got ${describeError(plain)}`);
  } else if (run.asked && !(plainTask?.status?.state === INPUT_REQUIRED && wordsOf(plainTask.status.message) !== '')) {
    r.fail(
      'activation.not-required',
      `expected the same input without A2A-Extensions to ask in words as it did with it, got ${stateOf(plainTask)} ${brief(wordsOf(plainTask?.status?.message))}`,
    );
  } else {
    r.pass(
      'activation.not-required',
      run.asked
        ? `without A2A-Extensions the same input still asked in words: ${brief(wordsOf(plainTask?.status?.message), 100)}`
        : `without A2A-Extensions SendMessage still answered (${plainTask ? stateOf(plainTask) : 'a message'})`,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// question (§2)

async function question(run: Run): Promise<void> {
  const { r } = run;
  if (!run.declaration || !run.jsonrpc) return; // decided by card()
  if (run.candidates.length === 0) {
    run.needsInput = 'The card offers no skill example, so give an input the agent cannot decide: --text "…" or --input <file>.';
    r.skipRest(
      'Skipped: no input was given (--input or --text) and the card offers no example, so nothing could make the agent ask; the input-dependent checks were not run.',
      'question',
      'reread',
      'none',
      'preview',
      'pinning',
    );
    return;
  }
  if (!run.asked) {
    if (run.candidates[0]!.fromCard) {
      const tried = run.candidates.map((c) => c.source.replace("the card's example ", '')).join(', ');
      // An example that asked once may have been taught since (by an operator, or a run with --keep).
      run.needsInput = `None of the card's examples (${tried}) makes the agent ask any more; give an input it cannot decide yet with --text "…" or --input <file>, or roll back what was taught about the first example.`;
      r.skipRest(
        `Skipped: no input was given and none of the card's examples (${tried}) made the agent ask (the last one answered ${run.notAsked ?? 'nothing'}); give --input or --text with an input it cannot decide.`,
        'question',
        'reread',
        'none',
        'preview',
        'pinning',
      );
    } else {
      r.fail('question.input-required', `expected ${run.candidates[0]!.source} to leave a task in ${INPUT_REQUIRED}, got ${run.notAsked ?? 'nothing'}`);
      r.skipRest('Skipped: the agent did not ask, so there is no question to check.', 'question', 'reread', 'none', 'preview', 'pinning');
    }
    return;
  }
  const asked = run.asked;
  r.pass('question.input-required', `${run.input!.source} left task ${asked.id} in ${INPUT_REQUIRED}`);
  const words = wordsOf(asked.status?.message);
  r.verdict(
    'question.in-words',
    words !== '',
    `the status message asks in words: ${brief(words, 120)}`,
    `expected a text part with the question in words in the status message, got parts ${brief(asked.status?.message?.parts)}`,
  );

  const block = extensionMetadata(asked);
  if (block === undefined) {
    const keys = Object.keys(asked.status?.message?.metadata ?? {});
    r.fail(
      'question.teach-block',
      `expected a TeachBlock under metadata[${JSON.stringify(LEARNABLES_URI)}] of the status message, got no such key (metadata keys: ${keys.join(', ') || 'none'})`,
    );
    r.skipRest('Skipped: the question carries no teach block.', 'question', 'pinning');
    return;
  }
  const verdict = validate('teach-block', block);
  r.verdict(
    'question.teach-block',
    verdict.ok,
    "the status message's metadata[URI] validates as a TeachBlock against the zod schema and schemas/teach-block.json",
    `expected metadata[URI] to be a TeachBlock, but ${verdict.problems}`,
  );
  const b = isObject(block) ? block : {};
  const version = b.version;
  const versionOk = typeof version === 'number' && Number.isInteger(version) && version > 0;
  r.verdict(
    'question.version',
    versionOk,
    `the task is pinned to version ${String(version)} of ${brief(b.collection)}`,
    `expected version to be a positive integer, got ${brief(version)}`,
  );
  const declared = run.declaration?.collection;
  r.verdict(
    'question.collection',
    b.collection === declared,
    `the teach block extends the declared collection ${brief(declared)}`,
    `expected collection ${brief(declared)} (the declared one), got ${brief(b.collection)}`,
  );

  const entries = (Array.isArray(b.entries) ? b.entries : []).filter(isObject).filter((e) => typeof e.key === 'string') as { key: string; label: string }[];
  if (versionOk && typeof b.collection === 'string') {
    run.block = {
      collection: b.collection,
      entries,
      version: version as number,
      ...(typeof b.entry === 'string' && b.entry !== '' && { entry: b.entry }),
      ...(isObject(b.suggested) && { suggested: b.suggested }),
    };
  }
  run.answerEntry = run.options.answer ?? entries[0]?.key;
  // `says` is optional (§3.6): only the suggestion's words, so never without a suggestion.
  if (typeof b.says === 'string' && run.block) {
    if (!isObject(b.suggested))
      r.fail('question.teach-block', `expected \`says\` only beside a \`suggested\` value (SPEC §3.6), got says ${brief(b.says)} with no suggestion`);
    else run.block = { ...run.block, says: b.says };
  }
}

// ---------------------------------------------------------------------------------------------
// reread (§6.1)

async function reread(run: Run): Promise<void> {
  const { r } = run;
  if (!run.declaration || !run.jsonrpc) return; // decided by card()
  if (!run.methods.reread) {
    r.skipRest('Skipped: the card declares no reread method.', 'reread');
    return;
  }
  if (!run.asked) return; // decided by question()
  const asked = run.asked;
  const before = { tasks: await countTasks(run), task: await snapshot(run, asked.id) };
  const { readings, answer } = await rereadTask(run, asked.id);
  const after = { tasks: await countTasks(run), task: await snapshot(run, asked.id) };
  if (readings) run.before = readings;

  if (!readings) {
    r.fail('reread.readings', `expected ${run.methods.reread} { taskId } to answer a RereadResult, got ${describeError(answer)}`);
  } else {
    const verdict = validate('reread-result', readings);
    const count = Object.keys(readings).length;
    r.verdict(
      'reread.readings',
      verdict.ok && count > 0,
      `reread answered ${count} reading${count === 1 ? '' : 's'} (${describeReadings(readings)})`,
      count === 0
        ? 'expected at least one Reading keyed by what it decides, got an empty object'
        : `expected each reading to be a Reading with a version, but ${verdict.problems}`,
    );
  }

  if (typeof before.tasks === 'number' && typeof after.tasks === 'number') {
    r.verdict(
      'reread.no-task',
      before.tasks === after.tasks,
      `ListTasks counted ${before.tasks} tasks before and after reread`,
      `expected ListTasks totalSize to stay ${before.tasks} across reread, got ${after.tasks}: reread created a task`,
    );
  } else {
    r.skip(
      'reread.no-task',
      `ListTasks did not answer a totalSize (${String(typeof before.tasks === 'number' ? after.tasks : before.tasks)}), so new tasks could not be counted; the task itself is checked by reread.task-untouched`,
    );
  }

  if (!before.task || !after.task) {
    r.fail(
      'reread.task-untouched',
      `expected GetTask to find task ${asked.id} before and after reread, got ${before.task ? 'nothing after' : 'nothing before'}`,
    );
  } else {
    const changes = [
      after.task.state !== INPUT_REQUIRED && `its state is ${after.task.state}`,
      after.task.history !== before.task.history && `its history went from ${before.task.history} to ${after.task.history} messages`,
      after.task.timestamp !== before.task.timestamp && `its status timestamp moved from ${String(before.task.timestamp)} to ${String(after.task.timestamp)}`,
    ].filter((c): c is string => typeof c === 'string');
    r.verdict(
      'reread.task-untouched',
      changes.length === 0,
      `task ${asked.id} is still ${INPUT_REQUIRED} with ${after.task.history} history messages, as before`,
      `expected task ${asked.id} to stay ${INPUT_REQUIRED} and unchanged after reread, but ${changes.join(', and ')}`,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// teaching the suggestion (§2.4), which also publishes the version pinning is tested against

async function teachSuggestion(run: Run): Promise<void> {
  const { r, block } = run;
  if (!run.asked || !block) return; // decided by question()
  const suggestion = suggestedLesson(run, 'learnables-check: a suggestion must be a value the learnable accepts (SPEC §2.4).');
  if (typeof suggestion === 'string') {
    r.skip('question.suggestion-accepted', suggestion);
    return;
  }
  const { lesson, entry } = suggestion;
  await beforeWriting(run, block.collection);
  const taught = await teachLesson(run, lesson);
  if (!taught) {
    r.skip('question.suggestion-accepted', 'the card declares no teach method and no --authority was given, so the kit has no way to teach the suggestion');
    return;
  }
  if (taught.refusal) {
    if (taught.refusal.error === 'unauthorized') {
      r.skip(
        'question.suggestion-accepted',
        `teaching needs credentials the kit was not given (${brief(taught.refusal.message)}); pass ${run.methods.teach ? '--token' : '--authority-token'}`,
      );
    } else {
      r.fail(
        'question.suggestion-accepted',
        `expected the agent's own learnable to accept the suggestion ${brief(block.suggested)} for ${brief(entry)}, got a refusal via ${taught.via}: ${brief(taught.refusal.message)}`,
      );
    }
    return;
  }
  const verdict = validate('lesson-outcome', taught.result);
  if (!verdict.ok) {
    r.fail('question.suggestion-accepted', `expected a LessonOutcome with changed: true or false from ${taught.via}, but ${verdict.problems}`);
    return;
  }
  const outcome = taught.result as { changed: boolean; version: number; says?: string };
  if (block.says !== undefined && outcome.says !== undefined && outcome.says !== block.says) {
    // Both are the learnable's words for one value: a client shows the first and records the second (§3.6).
    r.fail('question.suggestion-accepted', `expected the LessonOutcome's says to be the teach block's ${brief(block.says)}, got ${brief(outcome.says)}`);
    return;
  }
  run.taught = { changed: outcome.changed, version: outcome.version, entry, via: taught.via };
  if (outcome.changed) wrote(run, outcome.version, `the suggestion for ${entry}`);
  r.pass(
    'question.suggestion-accepted',
    `teaching the suggestion ${brief(block.suggested, 80)} to ${brief(entry)} via ${taught.via} answered changed: ${outcome.changed}, version ${outcome.version}`,
  );
}

// ---------------------------------------------------------------------------------------------
// pinning (§4.4)

async function pinning(run: Run): Promise<void> {
  const { r, block, taught } = run;
  if (!run.asked) return; // decided by question()
  if (!block) {
    r.skipRest('Skipped: the question carries no usable teach block (collection and version), so there is no pinned version to test.', 'pinning');
    return;
  }
  if (!taught) {
    r.skipRest(`Skipped: nothing was taught (see question.suggestion-accepted), so no new version exists to test the task's pin against.`, 'pinning');
    return;
  }
  if (!taught.changed) {
    r.skipRest(
      `Skipped: the suggestion was already known (changed: false, version ${taught.version}), so no new version was published, and no other value is known to be harmless generically; run the kit against a fresh deployment or roll ${block.collection} back.`,
      'pinning',
    );
    return;
  }
  const asked = block.version;
  r.verdict(
    'pinning.new-version',
    taught.version > asked,
    // Version numbers only grow: after a rollback the next lesson skips the numbers of versions
    // published earlier, so a gap says nothing about another writer.
    `the kit's lesson published version ${taught.version} of ${block.collection}, live now; the task was asked at version ${asked}`,
    `expected a changed lesson to publish a version above ${asked}, got version ${taught.version}`,
  );

  const entry = run.answerEntry;
  if (!entry) {
    r.skip('pinning.answer-completes', 'the question lists no entries and no --answer was given, so there is nothing to answer with');
    r.skip('pinning.asked-version', 'the task was not answered');
  } else {
    const answer = await send(run, [{ data: { entry } }], true, run.asked);
    const done = taskOf(answer.result);
    const completed = done?.status?.state === COMPLETED;
    r.verdict(
      'pinning.answer-completes',
      completed,
      `answering { "entry": ${JSON.stringify(entry)} } on task ${run.asked.id} completed it`,
      `expected the answer { "entry": ${JSON.stringify(entry)} } on task ${run.asked.id} to complete it, got ${done ? `${stateOf(done)} ${brief(wordsOf(done.status?.message), 120)}` : describeError(answer)}`,
    );
    if (!completed) {
      r.skip('pinning.asked-version', 'the task did not complete, so it reports no deciding version');
    } else {
      run.completed = done;
      const meta = extensionMetadata(done);
      const versions = isObject(meta) && isObject(meta.versions) ? meta.versions : undefined;
      const reported = versions?.[block.collection];
      r.verdict(
        'pinning.asked-version',
        reported === asked,
        `the completed task reports versions.${block.collection} = ${asked}, the version it was asked at, though ${taught.version} was live`,
        `expected metadata[URI].versions.${block.collection} = ${asked} (the version the task was asked at) on the completed task's status message, got ${brief(meta)}`,
      );
    }
  }

  const { readings, answer } = await rereadTask(run, run.asked.id);
  if (!readings) {
    r.fail('pinning.reread-live', `expected reread to answer readings at version ${taught.version}, got ${describeError(answer)}`);
  } else {
    const stale = Object.entries(readings).filter(([, reading]) => reading.version !== taught.version);
    r.verdict(
      'pinning.reread-live',
      stale.length === 0 && Object.keys(readings).length > 0,
      `reread now reads under version ${taught.version} (${describeReadings(readings)})`,
      `expected every reading to report the live version ${taught.version}, got ${describeReadings(readings) || 'no readings'}`,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// refusals (§3.4)

async function refusals(run: Run): Promise<void> {
  const { r, wire } = run;
  if (!run.declaration || !run.jsonrpc) return; // decided by card()
  const jsonrpc = run.jsonrpc;
  const collection = typeof run.declaration?.collection === 'string' ? run.declaration.collection : 'unknown';
  const entry = run.block?.entry ?? run.answerEntry ?? 'unknown';
  // A string value and no taughtBy: malformed in two ways, whatever the learnable.
  const malformed = { collection, entry, value: 'not an object', reason: 'learnables-check: this lesson is malformed on purpose (SPEC §3.4).' };

  const liveBefore = run.asked && run.methods.reread ? (await rereadTask(run, run.asked.id)).readings : undefined;
  if (run.methods.teach) {
    const answer = await wire.rpc(jsonrpc.url, run.methods.teach, malformed);
    if (!answer.error) {
      r.fail(
        'refusals.teach-malformed',
        `expected ${run.methods.teach} to refuse a lesson whose value is a string and which has no taughtBy, got ${answer.result === undefined ? `HTTP ${answer.status} ${brief(answer.text, 100)}` : `the result ${brief(answer.result)}`}`,
      );
    } else {
      const problems = jsonRpcRefusalProblems(answer.error);
      const liveAfter = liveBefore && run.asked ? (await rereadTask(run, run.asked.id)).readings : undefined;
      const moved = liveBefore && liveAfter && JSON.stringify(versionsOf(liveBefore)) !== JSON.stringify(versionsOf(liveAfter));
      if (moved)
        problems.push(
          `the live version moved from ${versionsOf(liveBefore).join(', ')} to ${versionsOf(liveAfter).join(', ')}, but a refused lesson must change nothing`,
        );
      r.verdict(
        'refusals.teach-malformed',
        problems.length === 0,
        `the teach method ${run.methods.teach} refused a malformed lesson with code ${answer.error.code} and the sentence ${brief(answer.error.message, 120)}`,
        `expected a JSON-RPC refusal whose message is a sentence and whose data is a Refusal, but ${problems.join('; ')}`,
      );
    }
  } else if (run.options.authority) {
    const url = `${run.options.authority.url.replace(/\/+$/, '')}/v1/lessons`;
    const answer = await wire.http(url, {
      method: 'POST',
      body: malformed,
      activate: false,
      auth: false,
      headers: run.options.authority.token ? { authorization: `Bearer ${run.options.authority.token}` } : {},
    });
    if (answer.status < 400) {
      r.fail(
        'refusals.teach-malformed',
        `expected POST ${url} to refuse a lesson whose value is a string and which has no taughtBy, got HTTP ${answer.status} ${brief(answer.text, 100)}`,
      );
    } else {
      const problems = httpRefusalProblems(answer.status, answer.body);
      r.verdict(
        'refusals.teach-malformed',
        problems.length === 0,
        `the authority refused the malformed lesson with HTTP ${answer.status}: ${brief((answer.body as Json | undefined)?.message, 120)}`,
        `expected a Refusal whose message is a sentence, but ${problems.join('; ')}`,
      );
    }
  } else {
    r.skip('refusals.teach-malformed', 'the card declares no teach method and no --authority was given, so there is nowhere to send a lesson');
  }

  if (!run.methods.reread) {
    r.skip('refusals.reread-no-params', 'the card declares no reread method');
  } else {
    const answer = await wire.rpc(jsonrpc.url, run.methods.reread, undefined);
    if (!answer.error) {
      r.fail(
        'refusals.reread-no-params',
        `expected ${run.methods.reread} with no params to be refused, got ${answer.result === undefined ? `HTTP ${answer.status} ${brief(answer.text, 100)}` : `the result ${brief(answer.result)}`}`,
      );
    } else {
      const problems = jsonRpcRefusalProblems(answer.error);
      r.verdict(
        'refusals.reread-no-params',
        problems.length === 0,
        `the reread method ${run.methods.reread} without params was refused with code ${answer.error.code} and the sentence ${brief(answer.error.message, 120)}`,
        `expected a JSON-RPC refusal whose message is a sentence and whose data is a Refusal, but ${problems.join('; ')}`,
      );
    }
  }
}

const versionsOf = (readings: Record<string, Json>): unknown[] =>
  Object.keys(readings)
    .sort()
    .map((name) => readings[name]?.version);

// ---------------------------------------------------------------------------------------------
// leave the agent as it was, where the kit can

async function cleanUp(run: Run): Promise<void> {
  const { writes, options } = run;
  const collection = typeof run.declaration?.collection === 'string' ? run.declaration.collection : run.block?.collection;
  if (writes.length === 0 || collection === undefined) return;
  const published = `${collection} ${writes.length === 1 ? 'version' : 'versions'} ${listed(writes.map((w) => `${w.version} (${w.what})`))}`;
  if (options.keep) {
    run.notes.push(`This run published ${published}; it was kept (--keep).`);
    return;
  }
  const authority = options.authority;
  if (authority?.token && run.restoreTo !== undefined) {
    const url = `${authority.url.replace(/\/+$/, '')}/v1/collections/${encodeURIComponent(collection)}/rollback`;
    try {
      const answer = await run.wire.http(url, {
        method: 'POST',
        activate: false,
        auth: false,
        headers: { authorization: `Bearer ${authority.token}` },
        body: { version: run.restoreTo, author: TAUGHT_BY, reason: `learnables-check: undo what it published to test the agent (${published}).` },
      });
      run.notes.push(
        answer.status < 300
          ? `Rolled ${collection} back to version ${run.restoreTo} on ${authority.url}, undoing what this run published (${published}).`
          : `Could not roll ${collection} back to version ${run.restoreTo} on ${authority.url} (HTTP ${answer.status} ${brief(answer.text, 120)}); what this run published (${published}) is still in effect.`,
      );
    } catch (error) {
      run.notes.push(
        `Could not reach ${authority.url} to roll ${collection} back (${errorText(error)}); what this run published (${published}) is still in effect.`,
      );
    }
    return;
  }
  if (run.methods.retract) {
    // Without an authority to roll back on, take back each of the run's own writes, newest first:
    // unlike a rollback, that leaves whatever anyone else taught meanwhile in effect.
    const left: string[] = [];
    for (const made of [...writes].reverse()) {
      try {
        const answer = await write(run, 'retract', {
          collection,
          version: made.version,
          author: TAUGHT_BY,
          reason: `learnables-check: take back ${made.what}.`,
        });
        if (!answer || answer.refusal) left.push(`${made.version} (${answer?.refusal ? brief(answer.refusal.message, 100) : 'no way to retract'})`);
      } catch (error) {
        left.push(`${made.version} (${errorText(error)})`);
      }
    }
    run.notes.push(
      left.length === 0
        ? `Retracted what this run published (${published}) through ${run.methods.retract}, newest first; each retraction is a version of its own.`
        : `Retracted what this run published (${published}) through ${run.methods.retract}, except ${listed(left)}.`,
    );
    return;
  }
  run.notes.push(
    `This run published ${published}; to undo it, roll ${collection} back to version ${run.restoreTo ?? 'the one before'} on the agent's authority (or pass --authority and --authority-token next time).`,
  );
}

const listed = (items: readonly string[]): string => (items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);

export type { CheckId, CheckResult };
export { SECTIONS };
export type { WireMessage };
