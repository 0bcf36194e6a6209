/**
 * An agent's input, before and after it is read. They live here, beside the learnable, rather than
 * in the runtime, so that an agent's parse module can refuse an input without loading the runtime:
 * the runtime runs that module in worker threads, and each thread loads only what parsing imports.
 */

/** A part of the incoming A2A message, as the agent's `parse` sees it (transport-neutral). */
export type InputPart =
  | { readonly kind: 'text'; readonly text: string; readonly mediaType?: string }
  | { readonly kind: 'file'; readonly bytes: Uint8Array; readonly mediaType?: string; readonly filename?: string }
  | { readonly kind: 'data'; readonly data: unknown; readonly mediaType?: string };

/** An input the agent cannot use; the message is a sentence for the person who sent it. */
export class InputRefused extends Error {
  override readonly name = 'InputRefused';
}
