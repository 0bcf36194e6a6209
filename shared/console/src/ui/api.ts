/// <reference lib="dom" />
import type { ApiError } from '../api-types.ts';

/** The console's server said no; `body.message` is a sentence to show as it is. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiError,
  ) {
    super(body.message);
  }
}

let signedOut: ((message: string) => void) | undefined;

/**
 * What to do when the server says the session is over (expired, signed out elsewhere, password
 * changed): the app goes back to the sign-in page. Drafts stay in this browser.
 */
export function onSignedOut(handler: (message: string) => void): void {
  signedOut = handler;
}

/** The server ended this browser's session. */
export function sessionEnded(): void {
  signedOut?.('Your session has ended (it was idle too long, or you signed out elsewhere). Sign in again; anything you had typed is kept.');
}

async function call<T>(method: string, path: string, body?: BodyInit, contentType?: string): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`/api${path}`, {
      method,
      headers: { accept: 'application/json', ...(contentType && { 'content-type': contentType }) },
      ...(body !== undefined && { body }),
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiFailure(0, { error: 'offline', message: 'The console’s server cannot be reached. Check that it is running, then try again.' });
  }
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    throw new ApiFailure(response.status, { error: 'internal', message: `The console’s server answered ${response.status} with something that is not JSON.` });
  }
  if (!response.ok) {
    const error = parsed as Partial<ApiError> | undefined;
    if (response.status === 401 && error?.error === 'not-signed-in' && path !== '/session') sessionEnded();
    throw new ApiFailure(response.status, {
      error: error?.error ?? 'internal',
      message: error?.message ?? `The console’s server answered ${response.status}.`,
      ...(error?.field !== undefined && { field: error.field }),
    });
  }
  return parsed as T;
}

export const getJson = <T>(path: string) => call<T>('GET', path);
export const postJson = <T>(path: string, body: unknown) => call<T>('POST', path, JSON.stringify(body), 'application/json');
export const deleteJson = <T>(path: string) => call<T>('DELETE', path);
export const postFile = <T>(path: string, file: Blob, mediaType: string) => call<T>('POST', path, file, mediaType);

/** A path segment, escaped. */
export const segment = (value: string): string => encodeURIComponent(value);
