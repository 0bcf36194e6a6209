import type { AgentCard } from '@a2a-js/sdk';
import { LEARNABLES_URI } from '@learnables/protocol';
import type { LearnableView } from '../api-types.ts';

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * The learnables declaration on a card, read leniently: whatever the agent declares is shown, and
 * `lessonFields` is passed on untouched for the client rule (`fieldsToRender`) to draw blind.
 */
export function learnableOf(card: AgentCard): LearnableView | undefined {
  const entry = card.capabilities?.extensions?.find((extension) => extension.uri === LEARNABLES_URI);
  const params = entry?.params;
  if (typeof params !== 'object' || params === null) return undefined;
  const declared = params as Record<string, unknown>;
  const methods = declared.methods as Partial<Record<'reread' | 'preview' | 'correct' | 'corrections', { jsonrpc?: unknown }>> | undefined;
  const rereadMethod = text(methods?.reread?.jsonrpc);
  const previewMethod = text(methods?.preview?.jsonrpc);
  const correctMethod = text(methods?.correct?.jsonrpc);
  const correctionsMethod = text(methods?.corrections?.jsonrpc);
  return {
    collection: text(declared.collection),
    entry: text(declared.entry),
    teaches: text(declared.teaches),
    how: text(declared.how),
    decidedBy: text(declared.decidedBy),
    lessonFields: declared.lessonFields ?? [],
    ...(rereadMethod !== '' && { rereadMethod }),
    ...(previewMethod !== '' && { previewMethod }),
    // Both or neither: a form that records corrections it cannot list back would hide them.
    ...(correctMethod !== '' && correctionsMethod !== '' && { correctMethod, correctionsMethod }),
    addsEntries: declared.addsEntries === true,
    admitsNone: declared.admitsNone === true,
  };
}

/** The card's JSON-RPC interface for protocol 1.0: the extension methods are served on it. */
export function jsonRpcInterfaceOf(card: AgentCard): { url: string; tenant: string } | undefined {
  const found =
    card.supportedInterfaces.find((entry) => entry.protocolBinding === 'JSONRPC' && entry.protocolVersion === '1.0') ??
    card.supportedInterfaces.find((entry) => entry.protocolBinding === 'JSONRPC');
  return found && { url: found.url, tenant: found.tenant };
}
