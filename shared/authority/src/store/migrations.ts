import type { Kysely, Migration, MigrationProvider } from 'kysely';

export type Engine = 'sqlite' | 'postgres';

/** Schema changes, in order. Both engines run the same ones; never edit one that has shipped. */
const migrations = (engine: Engine): Record<string, Migration> => ({
  '2026-11-29-001-versions': {
    async up(db: Kysely<unknown>) {
      const isPostgres = engine === 'postgres';
      const autoId = isPostgres ? 'bigserial' : 'integer';
      await db.schema
        .createTable('authority_collections')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('authority_versions')
        .addColumn('collection', 'text', (c) => c.notNull().references('authority_collections.name'))
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('parent', 'integer')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('authority_versions_pk', ['collection', 'version'])
        .execute();
      await db.schema
        .createTable('authority_entries')
        .addColumn('collection', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('entry_key', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('authority_entries_pk', ['collection', 'version', 'entry_key'])
        .addForeignKeyConstraint('authority_entries_version_fk', ['collection', 'version'], 'authority_versions', ['collection', 'version'])
        .execute();
      await db.schema
        .createTable('authority_activations')
        .addColumn('id', autoId as 'integer', (c) => (isPostgres ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('collection', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('author', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('audit', 'text', (c) => c.notNull())
        .addColumn('client', 'text', (c) => c.notNull())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addForeignKeyConstraint('authority_activations_version_fk', ['collection', 'version'], 'authority_versions', ['collection', 'version'])
        .execute();
      await db.schema.createIndex('authority_activations_by_collection').on('authority_activations').columns(['collection', 'id']).execute();
    },
  },
  // Snapshots: every so often a version also stores all its entries (compressed, in one row), so
  // resolving any version reads one snapshot and a bounded number of deltas instead of walking
  // the whole chain back to the seed. `base` is the nearest snapshotted version on a version's
  // lineage (itself when it holds one), `since_base` the delta rows written since that snapshot.
  // Versions written before this migration have neither and are resolved by walking the chain.
  '2026-12-01-001-snapshots': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('authority_versions').addColumn('base', 'integer').execute();
      await db.schema.alterTable('authority_versions').addColumn('since_base', 'integer').execute();
      await db.schema
        .createTable('authority_snapshots')
        .addColumn('collection', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('entries', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('authority_snapshots_pk', ['collection', 'version'])
        .addForeignKeyConstraint('authority_snapshots_version_fk', ['collection', 'version'], 'authority_versions', ['collection', 'version'])
        .execute();
    },
  },
  // What retraction needs: which entry a lesson taught and its value (opaque JSON, read back only
  // to hand to the learnable), and which version a retraction took back.
  '2026-12-01-002-activation-lessons': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('authority_activations').addColumn('entry', 'text').execute();
      await db.schema.alterTable('authority_activations').addColumn('value', 'text').execute();
      await db.schema.alterTable('authority_activations').addColumn('retracts', 'integer').execute();
      await db.schema.createIndex('authority_activations_by_version').on('authority_activations').columns(['collection', 'version']).execute();
    },
  },
  // A lesson's value in its learnable's words for people (SPEC §3.6), written with the lesson or
  // retraction; null for activations written before, and for those no learnable words describe.
  '2026-12-03-003-activation-says': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('authority_activations').addColumn('says', 'text').execute();
    },
  },
});

export const authorityMigrations = (engine: Engine): MigrationProvider => ({
  getMigrations: async () => migrations(engine),
});
