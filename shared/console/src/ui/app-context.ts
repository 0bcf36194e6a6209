import type { AgentView } from '../api-types.ts';

/** What every view is handed: who is signed in, the agents' cards, and ways to move on. */
export interface AppContext {
  readonly operator: string;
  /** The agents as the server last described them (cached briefly; `fresh` fetches again). */
  agents(fresh?: boolean): Promise<readonly AgentView[]>;
  /** Go to a route, e.g. `#/history/lists/2`. */
  navigate(hash: string): void;
  /** Count the questions again, for the badge in the navigation. */
  refreshCount(): void;
}
