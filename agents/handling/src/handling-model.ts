/// <reference path="./wink.d.ts" />
// The declarations of the classifier package (it ships none) travel with its importers, so any
// project that compiles this package through its public face (the stack, a scaffolded copy) finds them.
import naiveBayes from 'wink-naive-bayes-text-classifier';
import type { Definition } from '@learnables/learnable';
import type { HandlingExamples } from './handling-examples.ts';
import { samePhrase } from './handling-examples.ts';
import { tokensOf } from './tokens.ts';

/** Below this probability for the top handling, the agent asks. The `how` on the card is written from it. */
export const ASK_BELOW = 0.8;
/** When the top handling leads the next by less than this, the agent asks. */
export const ASK_WITHIN = 0.15;

/** A handling and how likely the classifier finds it for one description. */
export interface Candidate {
  readonly key: string;
  readonly label: string;
  readonly probability: number;
}

/**
 * The model of one version: its taught phrases (exact examples, by `samePhrase`) and the
 * classifier trained on every example, in the definition's order. A pure function of the
 * entries: the same examples always give the same model and the same probabilities.
 */
export interface HandlingModel {
  readonly phrases: ReadonlyMap<string, HandlingExamples>;
  readonly entries: readonly HandlingExamples[];
  /** Null when it cannot be trained: fewer than two handlings have examples, or too few words. */
  readonly classifier: ReturnType<typeof naiveBayes> | null;
  /** Examples the classifier was trained on (those with at least one word it reads). */
  readonly trainedOn: number;
  /** The handlings with at least one such example: the only ones the classifier can pick. */
  readonly trained: ReadonlySet<string>;
}

/**
 * Models of recent versions, by their frozen entries array (a version never changes, and the
 * runtime's pinned copy of a definition shares its entries). Bounded: the last few versions
 * read; an older pinned version is trained again, to the same model, when a task needs it.
 */
const modelsByEntries = new Map<readonly HandlingExamples[], HandlingModel>();
const training = new Map<readonly HandlingExamples[], Promise<HandlingModel>>();
const MOST_MODELS_KEPT = 8;

function remember(entries: readonly HandlingExamples[], model: HandlingModel): HandlingModel {
  const known = modelsByEntries.get(entries);
  if (known !== undefined) return known;
  if (modelsByEntries.size >= MOST_MODELS_KEPT) modelsByEntries.delete(modelsByEntries.keys().next().value as readonly HandlingExamples[]);
  modelsByEntries.set(entries, model);
  return model;
}

/** How long training holds the event loop at most before giving it back, when it trains in slices. */
const SLICE_MS = 8;

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Training, one example per step: tokenize (or find the tokens of) the example, count its words.
 * Both ways of training run these same steps in the same order, so they build the same model.
 */
function* trainingSteps(entries: readonly HandlingExamples[]): Generator<void, HandlingModel> {
  const phrases = new Map<string, HandlingExamples>();
  const classifier = naiveBayes();
  let trainedOn = 0;
  const trained = new Set<string>();
  for (const entry of entries) {
    for (const example of entry.examples) {
      phrases.set(samePhrase(example), entry);
      const tokens = tokensOf(example);
      if (tokens.length > 0) {
        classifier.learn(tokens, entry.key);
        trained.add(entry.key);
        trainedOn += 1;
      }
      yield;
    }
  }
  let consolidated = true;
  try {
    classifier.consolidate();
  } catch {
    // Fewer than two handlings with examples, or fewer than ten words: nothing to classify with.
    consolidated = false;
  }
  return { phrases, entries, classifier: consolidated ? classifier : null, trainedOn, trained };
}

/** Train a version's model now, on this thread. */
function train(entries: readonly HandlingExamples[]): HandlingModel {
  const steps = trainingSteps(entries);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Train a version's model in slices of at most about SLICE_MS, giving the event loop back between them. */
async function trainInSlices(entries: readonly HandlingExamples[]): Promise<HandlingModel> {
  const steps = trainingSteps(entries);
  let sliceStarted = performance.now();
  for (let count = 1; ; count += 1) {
    const step = steps.next();
    if (step.done) return step.value;
    // Looking at the clock every 32 examples: a step is 5 µs (tokens known) to about 0.1 ms (new text).
    if (count % 32 === 0 && performance.now() - sliceStarted >= SLICE_MS) {
      await yieldToEventLoop();
      sliceStarted = performance.now();
    }
  }
}

/** The model of this version, trained now if no recent read or `prepareModel` trained it. */
export function modelOf(definition: Definition<HandlingExamples>): HandlingModel {
  return modelsByEntries.get(definition.entries) ?? remember(definition.entries, train(definition.entries));
}

/**
 * Train this version's model off the request path, in slices: the runtime calls it when a version
 * is announced and before a task reads, so `modelOf` then finds it. Calls for one version share
 * one training.
 */
export function prepareModel(definition: Definition<HandlingExamples>): Promise<HandlingModel> {
  const known = modelsByEntries.get(definition.entries);
  if (known !== undefined) return Promise.resolve(known);
  let pending = training.get(definition.entries);
  if (pending === undefined) {
    pending = trainInSlices(definition.entries)
      .then((model) => remember(definition.entries, model))
      .finally(() => training.delete(definition.entries));
    training.set(definition.entries, pending);
  }
  return pending;
}

/**
 * Every handling's probability for a description, highest first (ties in the definition's
 * order). The classifier's log2 odds for each handling, normalised: p = 2^odds / Σ 2^odds. A
 * description with no word the classifier knows gets the same probability for every handling
 * with examples; a handling without examples gets 0.
 */
export function classify(model: HandlingModel, description: string, tokens: readonly string[] = tokensOf(description)): Candidate[] {
  const odds = new Map<string, number>();
  if (model.classifier !== null) {
    const computed = model.classifier.computeOdds(tokens);
    const known = !(computed.length === 1 && computed[0]?.[0] === 'unknown');
    for (const entry of model.entries) {
      if (model.trained.has(entry.key)) odds.set(entry.key, 0);
    }
    if (known) for (const [key, value] of computed) odds.set(key, value);
  }
  const highest = Math.max(...odds.values());
  let total = 0;
  for (const value of odds.values()) total += 2 ** (value - highest);
  const candidates = model.entries.map((entry, position) => ({
    key: entry.key,
    label: entry.label,
    probability: odds.has(entry.key) ? 2 ** (odds.get(entry.key)! - highest) / total : 0,
    position,
  }));
  candidates.sort((a, b) => b.probability - a.probability || a.position - b.position);
  return candidates.map(({ key, label, probability }) => ({ key, label, probability }));
}

/** Whether the classifier's answer is sure enough to decide without asking (the card's rule). */
export function sureEnough(candidates: readonly Candidate[]): boolean {
  const [top, next] = candidates;
  if (top === undefined || top.probability < ASK_BELOW) return false;
  return top.probability - (next?.probability ?? 0) >= ASK_WITHIN;
}

/** What decides one description under a version: a taught phrase, the classifier, or nobody yet. */
export type Decision =
  | { readonly by: 'phrase'; readonly entry: HandlingExamples; readonly candidates: readonly Candidate[] }
  | { readonly by: 'model'; readonly entry: HandlingExamples; readonly candidates: readonly Candidate[] }
  | { readonly by: 'nobody'; readonly candidates: readonly Candidate[] };

/** `tokens`: the description's, when parsing already tokenized it (`tokensOf(description)` otherwise). */
export function decide(model: HandlingModel, description: string, tokens: readonly string[] = tokensOf(description)): Decision {
  const phrase = model.phrases.get(samePhrase(description));
  const candidates = classify(model, description, tokens);
  if (phrase !== undefined) return { by: 'phrase', entry: phrase, candidates };
  const top = candidates[0];
  const entry = top && sureEnough(candidates) ? model.entries.find((known) => known.key === top.key) : undefined;
  return entry ? { by: 'model', entry, candidates } : { by: 'nobody', candidates };
}
