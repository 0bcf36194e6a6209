import type { AgentView, QuestionsResponse } from '../api-types.ts';

/** What every view is handed: who is signed in, the agents' cards, and ways to move on. */
export interface AppContext {
  readonly operator: string;
  /** The agents as the server last described them (cached briefly; `fresh` fetches again). */
  agents(fresh?: boolean): Promise<readonly AgentView[]>;
  /** Go to a route, e.g. `#/history/lists/2`. */
  navigate(hash: string): void;
  /** The waiting questions as last streamed, if any arrived yet. */
  latestQuestions(): QuestionsResponse | undefined;
  /**
   * Follow the waiting questions while the current page is shown: the listener hears the latest
   * at once and every change after; leaving the page stops it.
   */
  watchQuestions(listener: (snapshot: QuestionsResponse) => void): void;
}
