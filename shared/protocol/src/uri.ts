/** The identifier of the learnables extension, v1. Nothing fetches it; it names the contract. */
export const LEARNABLES_URI = 'https://rsaxb.com/a2a/learnables/v1';

/** The HTTP header a client lists extension URIs in, and the agent echoes activated ones in. */
export const EXTENSIONS_HEADER = 'A2A-Extensions';

/**
 * The extension's methods, by transport. Agents publish these in the declaration's `methods`
 * so a client never has to guess; these are the names this implementation uses. A REST path is
 * relative to the agent's HTTP+JSON interface URL (and may follow a tenant segment, like the
 * core REST routes).
 */
export const LEARNABLES_METHODS = {
  reread: { jsonrpc: 'learnables/reread', rest: '/learnables:reread' },
  teach: { jsonrpc: 'learnables/teach', rest: '/learnables:teach' },
  retract: { jsonrpc: 'learnables/retract', rest: '/learnables:retract' },
  preview: { jsonrpc: 'learnables/preview', rest: '/learnables:preview' },
  correct: { jsonrpc: 'learnables/correct', rest: '/learnables:correct' },
  corrections: { jsonrpc: 'learnables/corrections', rest: '/learnables:corrections' },
} as const;
