import { describe, expect, it } from 'vitest';
import { Task } from '@a2a-js/sdk';
import { LEARNABLES_URI } from '@learnables/protocol';
import { newestFirst, taskViewOf } from './task-view.ts';

const agent = { id: 'agent-1', name: 'An agent' };
const teach = {
  collection: 'things',
  question: 'Which one?',
  entries: [{ key: 'a', label: 'Thing A' }, { key: 'b' }],
  suggested: { anything: 'x' },
  version: 3,
};

const asking = Task.fromJSON({
  id: 't1',
  contextId: 'c1',
  status: {
    state: 'TASK_STATE_INPUT_REQUIRED',
    timestamp: '2026-11-29T10:00:00.000Z',
    message: {
      messageId: 'm2',
      role: 'ROLE_AGENT',
      parts: [{ text: 'Which one?' }],
      metadata: { [LEARNABLES_URI]: teach, summary: { shape: ['of', 'a', 'list'] } },
    },
  },
  history: [{ messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hello' }] }],
});

describe('taskViewOf reads a task the way the console shows it', () => {
  it('takes the question, the teach block and the summary from the status message', () => {
    expect(taskViewOf(asking, agent)).toEqual({
      agentId: 'agent-1',
      agentName: 'An agent',
      taskId: 't1',
      contextId: 'c1',
      state: 'asking',
      at: '2026-11-29T10:00:00.000Z',
      said: 'Which one?',
      summary: { shape: ['of', 'a', 'list'] },
      teach: {
        collection: 'things',
        question: 'Which one?',
        entries: [
          { key: 'a', label: 'Thing A' },
          { key: 'b', label: 'b' },
        ],
        suggested: { anything: 'x' },
        version: 3,
      },
    });
  });

  it('keeps the question from history once answered, and says which version decided it and who', () => {
    const decided = Task.fromJSON({
      id: 't1',
      contextId: 'c1',
      status: {
        state: 'TASK_STATE_COMPLETED',
        timestamp: '2026-11-29T10:05:00.000Z',
        message: {
          messageId: 'm4',
          role: 'ROLE_AGENT',
          parts: [{ text: 'It is A.' }],
          metadata: { [LEARNABLES_URI]: { versions: { things: 3 }, decidedBy: 'operator', answeredBy: 'dana' } },
        },
      },
      history: [
        { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hello' }] },
        (Task.toJSON(asking) as { status: { message: unknown } }).status.message,
        { messageId: 'm3', role: 'ROLE_USER', parts: [{ data: { entry: 'a' } }] },
      ],
    });
    expect(taskViewOf(decided, agent)).toMatchObject({
      state: 'decided',
      said: 'It is A.',
      versions: { things: 3 },
      decidedBy: 'operator',
      answeredBy: 'dana',
      summary: { shape: ['of', 'a', 'list'] },
      teach: { collection: 'things' },
    });
  });

  it('orders tasks newest first', () => {
    const at = (taskId: string, time: string) => ({ ...taskViewOf(asking, agent), taskId, at: time });
    const sorted = [at('old', '2026-11-01T00:00:00Z'), at('new', '2026-11-29T00:00:00Z'), at('mid', '2026-11-15T00:00:00Z')].sort(newestFirst);
    expect(sorted.map((task) => task.taskId)).toEqual(['new', 'mid', 'old']);
  });
});
