import type { Generated } from 'kysely';

/** The authority's tables. A version stores only the entries it changed (its delta). */
export interface AuthorityTables {
  authority_collections: { name: string; created_at: number };
  authority_versions: { collection: string; version: number; parent: number | null; created_at: number };
  authority_entries: { collection: string; version: number; entry_key: string; state: string };
  authority_activations: {
    id: Generated<number>;
    collection: string;
    version: number;
    kind: string;
    author: string;
    reason: string;
    audit: string;
    client: string;
    at: number;
  };
}
