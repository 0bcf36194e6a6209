/**
 * JSON-RPC codes of the two access refusals (SPEC §3.4). JSON-RPC 2.0 reserves -32768..-32000 for
 * the protocol and its implementation, and A2A assigns codes in it (-32001 TaskNotFound up to
 * -32009 VersionNotSupported, and treats -32000..-32099 as its own): a code there can mean another
 * thing to a generic A2A client today or tomorrow. JSON-RPC leaves every other integer to the
 * application, so these sit outside the reserved range, named after the HTTP status they go with.
 */
export const UNAUTHORIZED_CODE = -31401;
export const FORBIDDEN_CODE = -31403;

/**
 * What this extension's agents sent for both before v0.2 of this implementation: A2A's
 * TaskNotFoundError code. A client SHOULD still read it as `unauthorized` / `forbidden` when the
 * error's `data.error` says so, until the next version of this extension (SPEC §3.4).
 */
export const LEGACY_ACCESS_CODE = -32001;

/** The refusal table of SPEC §3.4: the HTTP status and JSON-RPC code per `error`. */
export const REFUSAL_CODES: ReadonlyMap<string, { readonly http: number; readonly jsonrpc: number }> = new Map([
  ['unlearnable', { http: 422, jsonrpc: -32602 }],
  ['malformed', { http: 400, jsonrpc: -32602 }],
  ['unknown-collection', { http: 404, jsonrpc: -32602 }],
  ['unknown-entry', { http: 404, jsonrpc: -32602 }],
  ['unknown-version', { http: 404, jsonrpc: -32602 }],
  ['unknown-task', { http: 404, jsonrpc: -32602 }],
  ['not-found', { http: 404, jsonrpc: -32601 }],
  ['unauthorized', { http: 401, jsonrpc: UNAUTHORIZED_CODE }],
  ['forbidden', { http: 403, jsonrpc: FORBIDDEN_CODE }],
  ['too-large', { http: 413, jsonrpc: -32600 }],
  ['conflict', { http: 409, jsonrpc: -32603 }],
  ['entry-exists', { http: 409, jsonrpc: -32602 }],
  ['not-retractable', { http: 409, jsonrpc: -32602 }],
  ['not-correctable', { http: 409, jsonrpc: -32602 }],
  ['internal', { http: 500, jsonrpc: -32603 }],
  ['busy', { http: 503, jsonrpc: -32000 }],
]);

/**
 * Whether a JSON-RPC error is the access refusal `error` names: the code SPEC §3.4 gives it, or the
 * code agents sent before (-32001) with the refusal's `error` in `data`, read alike for one version.
 */
export function isAccessRefusal(error: { code?: unknown; data?: unknown } | undefined, which: 'unauthorized' | 'forbidden'): boolean {
  if (error === undefined) return false;
  const named = typeof error.data === 'object' && error.data !== null && (error.data as { error?: unknown }).error === which;
  if (error.code === (which === 'unauthorized' ? UNAUTHORIZED_CODE : FORBIDDEN_CODE)) return true;
  return error.code === LEGACY_ACCESS_CODE && named;
}
