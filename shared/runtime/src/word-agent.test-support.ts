// A tiny learnable agent for the runtime's own tests: which list does a text belong to? Each list
// (a WordList from @learnables/testing) knows words; a text containing one of a list's words
// belongs to it. Steps append to WORD_AGENT_LOG, so tests can count how often each one ran.
import { appendFileSync } from 'node:fs';
import { wordListKind } from '@learnables/testing';
import type { WordList } from '@learnables/testing';
import type { InputPart, LearnableAgent, Reading } from './learnable-agent.ts';
import type { PinnedDefinitions } from './pinned-definitions.ts';
import { InputRefused } from './learnable-agent.ts';

export interface WordInput {
  readonly text: string;
  readonly date?: string;
}

const note = (step: string) => {
  if (process.env.WORD_AGENT_LOG) appendFileSync(process.env.WORD_AGENT_LOG, `${step}\n`);
};

function lists(definitions: PinnedDefinitions): WordList[] {
  return (definitions.get('lists')?.entries ?? []) as WordList[];
}

/** Every task the runtime told the word agent had completed, in order: `text → list`. */
export const completions: string[] = [];

export const wordAgent: LearnableAgent<WordInput, { list: string }> = {
  name: 'Word list agent',
  description: 'Says which list a text belongs to.',
  version: '0.0.1',
  skill: { id: 'word-lists', name: 'Which list', description: 'Which list a text belongs to', inputModes: ['text/plain'] },
  declaration: {
    collection: 'lists',
    entry: 'list',
    teaches: 'which list a text belongs to',
    how: 'A text belongs to the first list that knows one of its words; if none does, I ask.',
    decidedBy: 'rules',
    lessonFields: [{ name: 'word', label: 'Word', kind: 'text' }],
  },
  kinds: [wordListKind()],
  parse(parts: readonly InputPart[]): WordInput {
    note('parse');
    const text = parts
      .map((part) => (part.kind === 'text' ? part.text : ''))
      .join(' ')
      .trim();
    if (text === '') throw new InputRefused('There is no text to read in this message.');
    if (text === 'explode') throw new Error('the reading function blew up');
    const date = /^date:(\d{4}-\d{2}-\d{2})/.exec(text)?.[1];
    return { text, ...(date && { date }) };
  },
  summarize: (input) => ({ text: input.text }),
  dateOf: (input) => (input.date ? new Date(`${input.date}T12:00:00Z`) : undefined),
  read(input, definitions): Reading<{ list: string }> {
    note('read');
    const words = input.text.toLowerCase().split(/\s+/);
    const found = lists(definitions).find((list) => list.words.some((word) => words.includes(word.toLowerCase())));
    if (found) {
      return {
        settled: true,
        findings: { list: { settled: true, winner: found.key, reads: `Belongs to ${found.label}`, collection: 'lists' } },
        result: { list: found.key },
      };
    }
    const suggestion = words.find((word) => !word.startsWith('date:'));
    return {
      settled: false,
      findings: { list: { settled: false, reads: 'Still cannot tell which list this is.', collection: 'lists' } },
      question: {
        collection: 'lists',
        question: 'Which list does this text belong to?',
        entries: lists(definitions).map((list) => ({ key: list.key, label: list.label })),
        ...(suggestion && { suggested: { word: suggestion } }),
      },
    };
  },
  completed(input, result) {
    completions.push(`${input.text} → ${result.list}`);
  },
  answer(_input, _definitions, _question, answer) {
    note('answer');
    return {
      settled: true,
      findings: { list: { settled: true, winner: answer.entry, reads: `Belongs to ${answer.entry}, as the operator answered`, collection: 'lists' } },
      result: { list: answer.entry },
    };
  },
};
