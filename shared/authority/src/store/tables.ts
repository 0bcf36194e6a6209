import type { Generated } from 'kysely';

/** The authority's tables. A version stores only the entries it changed (its delta). */
export interface AuthorityTables {
  authority_collections: { name: string; created_at: number };
  authority_versions: {
    collection: string;
    version: number;
    parent: number | null;
    created_at: number;
    /** The nearest version on this one's lineage holding a snapshot (null: written before snapshots). */
    base: number | null;
    /** Delta rows written on the lineage since `base`. */
    since_base: number | null;
  };
  /** Every entry of a version: its keys as a JSON array, then a line of JSON per state (`encodeSnapshot`); see `snapshotEvery`. */
  authority_snapshots: { collection: string; version: number; entries: string };
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
    /** The entry a lesson taught or an entry-added activation added; null for seeds and rollbacks. */
    entry: string | null;
    /** A lesson's value as JSON, kept so it can be retracted; opaque here. */
    value: string | null;
    /** For a retraction: the version whose lesson it took back. */
    retracts: number | null;
    /** The learnable's words for the value taught or taken back (SPEC §3.6); null without them. */
    says: Generated<string | null>;
  };
}
