/// <reference lib="dom" />
import type { QuestionsResponse, SessionResponse } from '../api-types.ts';
import { getJson, sessionEnded } from './api.ts';

export type QuestionsListener = (snapshot: QuestionsResponse) => void;

/** The waiting questions as the console's server streams them (`GET /api/events`), for every page to follow. */
export interface LiveQuestions {
  /** The last snapshot heard, if any. */
  latest(): QuestionsResponse | undefined;
  /** Hear of every snapshot from now on (and of the latest at once). Returns the way to stop. */
  subscribe(listener: QuestionsListener): () => void;
  close(): void;
}

/** Open the stream; the browser reopens it by itself when the server goes away and comes back. */
export function openLiveQuestions(): LiveQuestions {
  const listeners = new Set<QuestionsListener>();
  let latest: QuestionsResponse | undefined;
  const source = new EventSource('/api/events');
  source.addEventListener('questions', (event) => {
    try {
      latest = JSON.parse((event as MessageEvent<string>).data) as QuestionsResponse;
    } catch {
      return;
    }
    for (const listener of [...listeners]) listener(latest);
  });
  // A stream refused or ended may mean the session ended: ask, and go to sign-in if so.
  source.addEventListener('error', () => {
    void getJson<SessionResponse>('/session').then(
      ({ operator }) => {
        if (operator === null) sessionEnded();
      },
      () => undefined,
    );
  });
  return {
    latest: () => latest,
    subscribe(listener) {
      listeners.add(listener);
      if (latest) listener(latest);
      return () => listeners.delete(listener);
    },
    close: () => source.close(),
  };
}
