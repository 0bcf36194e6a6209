import { describe, expect, it } from 'vitest';
import type { AgentCard } from '@a2a-js/sdk';
import { LEARNABLES_URI } from '@learnables/protocol';
import { agentIdOf } from './agent-directory.ts';
import { jsonRpcInterfaceOf, learnableOf } from './read-card.ts';

const card = (extensions: unknown[]): AgentCard =>
  ({
    name: 'Any agent',
    supportedInterfaces: [
      { url: 'http://h/a2a/jsonrpc', protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '0.3' },
      { url: 'http://h/a2a/rest', protocolBinding: 'HTTP+JSON', tenant: '', protocolVersion: '1.0' },
      { url: 'http://h/a2a/jsonrpc', protocolBinding: 'JSONRPC', tenant: 't', protocolVersion: '1.0' },
    ],
    capabilities: { extensions },
  }) as unknown as AgentCard;

describe('reading the learnables declaration off a card', () => {
  it('takes what the card declares and passes lesson fields on untouched', () => {
    const lessonFields = [{ name: 'x', label: 'X', kind: 'tint', extra: true }];
    const learnable = learnableOf(
      card([
        { uri: 'urn:other', params: { collection: 'nope' } },
        {
          uri: LEARNABLES_URI,
          required: false,
          params: {
            collection: 'c',
            entry: 'e',
            teaches: 't',
            how: 'h',
            decidedBy: 'model',
            lessonFields,
            methods: { reread: { jsonrpc: 'x/reread', rest: '/x' } },
          },
        },
      ]),
    );
    expect(learnable).toEqual({
      collection: 'c',
      entry: 'e',
      teaches: 't',
      how: 'h',
      decidedBy: 'model',
      lessonFields,
      rereadMethod: 'x/reread',
      addsEntries: false,
      admitsNone: false,
    });
    expect(learnable?.lessonFields).toBe(lessonFields);
  });

  it('offers "none of these", a new entry and the preview only when the card says so, exactly', () => {
    const declared = (more: Record<string, unknown>) =>
      learnableOf(card([{ uri: LEARNABLES_URI, params: { collection: 'c', methods: { reread: { jsonrpc: 'r' } }, ...more } }]));
    expect(declared({ addsEntries: true, admitsNone: true, methods: { reread: { jsonrpc: 'r' }, preview: { jsonrpc: 'x/preview' } } })).toMatchObject({
      addsEntries: true,
      admitsNone: true,
      previewMethod: 'x/preview',
    });
    // Anything but the boolean true is "no" (SPEC §1.3: absent means false).
    const lenient = declared({ addsEntries: 'true', admitsNone: 1 });
    expect(lenient).toMatchObject({ addsEntries: false, admitsNone: false });
    expect(lenient?.previewMethod).toBeUndefined();
  });

  it('finds no declaration on a card without the extension, and no reread when no method is published', () => {
    expect(learnableOf(card([]))).toBeUndefined();
    expect(learnableOf(card([{ uri: LEARNABLES_URI, params: { collection: 'c' } }]))).toMatchObject({ collection: 'c', lessonFields: [] });
    expect(learnableOf(card([{ uri: LEARNABLES_URI, params: { collection: 'c' } }]))?.rereadMethod).toBeUndefined();
  });

  it('uses the JSON-RPC interface of protocol 1.0 for the extension methods', () => {
    expect(jsonRpcInterfaceOf(card([]))).toEqual({ url: 'http://h/a2a/jsonrpc', tenant: 't' });
  });

  it('names agents by their URL, so links survive a reordered configuration', () => {
    expect(agentIdOf('http://127.0.0.1:4201')).toBe('127-0-0-1-4201');
    expect(agentIdOf('https://agents.example/words/')).toBe('agents-example-words');
  });
});
