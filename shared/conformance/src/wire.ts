// Plain HTTP/JSON on the A2A v1.0 wire (protobuf-JSON: parts are `{ text }`, `{ raw }`, `{ data }`;
// states are `TASK_STATE_…` strings), so the kit depends on no A2A library and on nothing of
// this project's runtime: what it sees is what any client would see.
import { randomUUID } from 'node:crypto';
import { EXTENSIONS_HEADER, LEARNABLES_URI } from '@learnables/protocol';

export const A2A_VERSION = '1.0';

/** One JSON part of a v1.0 message, as it travels. */
export type WirePart =
  | { text: string; mediaType?: string }
  | { raw: string; mediaType: string; filename: string }
  | { data: Record<string, unknown>; mediaType?: string };

export interface WireMessage {
  messageId?: string;
  role?: string;
  taskId?: string;
  contextId?: string;
  parts?: WirePart[];
  metadata?: Record<string, unknown>;
}

export interface WireTask {
  id: string;
  contextId?: string;
  status?: { state?: string; message?: WireMessage; timestamp?: string };
  history?: WireMessage[];
  artifacts?: unknown[];
  metadata?: Record<string, unknown>;
}

export interface JsonRpcError {
  code: number;
  message: string;
  data?: unknown;
}

export interface HttpAnswer<T> {
  readonly status: number;
  readonly headers: Headers;
  readonly body: T | undefined;
  /** The body as text, for reports when it was not the JSON expected. */
  readonly text: string;
}

export interface RpcAnswer extends HttpAnswer<{ result?: unknown; error?: JsonRpcError }> {
  readonly result: unknown;
  readonly error: JsonRpcError | undefined;
}

export interface Wire {
  /** GET or POST JSON to any URL, with the kit's standard headers. */
  http<T = unknown>(
    url: string,
    init?: { method?: string; body?: unknown; headers?: Record<string, string>; activate?: boolean; auth?: boolean },
  ): Promise<HttpAnswer<T>>;
  /** A JSON-RPC 2.0 call. `params: undefined` sends a request with no `params` member at all. */
  rpc(endpoint: string, method: string, params: unknown, options?: { activate?: boolean; auth?: boolean }): Promise<RpcAnswer>;
}

export interface WireOptions {
  readonly token?: string;
  readonly timeoutMs: number;
  readonly fetch?: typeof fetch;
}

/** What the server echoed in `A2A-Extensions`, split into URIs. */
export function echoedExtensions(headers: Headers): string[] {
  return (headers.get(EXTENSIONS_HEADER) ?? '')
    .split(',')
    .map((uri) => uri.trim())
    .filter((uri) => uri !== '');
}

export const echoes = (headers: Headers): boolean => echoedExtensions(headers).includes(LEARNABLES_URI);

export function createWire(options: WireOptions): Wire {
  const doFetch = options.fetch ?? fetch;
  const headersFor = (activate: boolean, auth: boolean, extra: Record<string, string> = {}): Record<string, string> => ({
    'A2A-Version': A2A_VERSION,
    accept: 'application/json, application/a2a+json',
    ...(activate && { [EXTENSIONS_HEADER]: LEARNABLES_URI }),
    ...(auth && options.token && { authorization: `Bearer ${options.token}` }),
    ...extra,
  });

  async function http<T>(url: string, init: { method?: string; body?: unknown; headers?: Record<string, string>; activate?: boolean; auth?: boolean } = {}) {
    const method = init.method ?? (init.body === undefined ? 'GET' : 'POST');
    const response = await doFetch(url, {
      method,
      headers: headersFor(init.activate ?? true, init.auth ?? true, {
        ...(init.body !== undefined && { 'content-type': 'application/json' }),
        ...init.headers,
      }),
      ...(init.body !== undefined && { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) }),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    const text = await response.text();
    let body: T | undefined;
    try {
      body = text === '' ? undefined : (JSON.parse(text) as T);
    } catch {
      body = undefined;
    }
    return { status: response.status, headers: response.headers, body, text };
  }

  return {
    http,
    async rpc(endpoint, method, params, rpcOptions = {}) {
      const request: Record<string, unknown> = { jsonrpc: '2.0', id: randomUUID(), method };
      if (params !== undefined) request.params = params;
      const answer = await http<{ result?: unknown; error?: JsonRpcError }>(endpoint, {
        method: 'POST',
        body: request,
        activate: rpcOptions.activate ?? true,
        auth: rpcOptions.auth ?? true,
      });
      const error = answer.body?.error;
      return { ...answer, result: answer.body?.result, error: typeof error === 'object' && error !== null ? error : undefined };
    },
  };
}

/** Media types by file extension; `.txt` (and unknown text) travels as a text part. */
const MEDIA_TYPES: Record<string, string> = {
  '.eml': 'message/rfc822',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.xls': 'application/vnd.ms-excel',
  '.csv': 'text/csv',
  '.json': 'application/json',
  '.pdf': 'application/pdf',
  '.html': 'text/html',
  '.xml': 'application/xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
};

/** How an input file travels: `.txt` as a text part, anything else as bytes with its media type. */
export function partForFile(bytes: Uint8Array, filename: string, mediaType?: string): WirePart {
  const extension = /\.[^./\\]+$/.exec(filename.toLowerCase())?.[0] ?? '';
  if (mediaType === undefined && (extension === '.txt' || extension === '.text')) {
    return { text: Buffer.from(bytes).toString('utf8') };
  }
  return { raw: Buffer.from(bytes).toString('base64'), mediaType: mediaType ?? MEDIA_TYPES[extension] ?? 'application/octet-stream', filename };
}

export function userMessage(parts: WirePart[], task?: { id: string; contextId?: string }): WireMessage {
  return {
    messageId: randomUUID(),
    role: 'ROLE_USER',
    parts,
    ...(task && { taskId: task.id, ...(task.contextId && { contextId: task.contextId }) }),
  };
}

/** The task in a SendMessage result (`{ task }`), or a bare task (GetTask), or undefined. */
export function taskOf(result: unknown): WireTask | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  const candidate = 'task' in result ? (result as { task: unknown }).task : result;
  if (typeof candidate !== 'object' || candidate === null) return undefined;
  const task = candidate as WireTask;
  return typeof task.id === 'string' && typeof task.status === 'object' ? task : undefined;
}

/** The words of a message's text parts. */
export function wordsOf(message: WireMessage | undefined): string {
  return (message?.parts ?? [])
    .map((part) => ('text' in part && typeof part.text === 'string' ? part.text : ''))
    .join('')
    .trim();
}

/** `metadata[URI]` of a task's status message. */
export function extensionMetadata(task: WireTask | undefined): unknown {
  return task?.status?.message?.metadata?.[LEARNABLES_URI];
}

/** A short, single-line rendering of a value for a report sentence. */
export function brief(value: unknown, limit = 160): string {
  let text: string;
  if (value === undefined) text = 'nothing';
  else if (typeof value === 'string') text = JSON.stringify(value);
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}
