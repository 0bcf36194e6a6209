import type { Kysely, Migration, MigrationProvider } from 'kysely';
import { sql } from 'kysely';

const migrations: Record<string, Migration> = {
  '2026-11-29-001-journal': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('learnables_journal')
        .addColumn('task_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('step', 'varchar(64)', (c) => c.notNull())
        .addColumn('result', 'text', (c) => c.notNull())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('learnables_journal_pk', ['task_id', 'step'])
        .execute();
      await db.schema
        .createTable('learnables_tasks')
        .addColumn('task_id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('agent', 'text', (c) => c.notNull())
        .addColumn('tenant', 'text', (c) => c.notNull())
        .addColumn('owner', 'text', (c) => c.notNull())
        .addColumn('message_at', 'bigint', (c) => c.notNull())
        .addColumn('asked', 'integer', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('learnables_tasks_by_state').on('learnables_tasks').columns(['agent', 'state']).execute();
    },
  },
  '2026-12-01-001-corrections': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('learnables_corrections')
        .addColumn('task_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('finding', 'varchar(200)', (c) => c.notNull())
        .addColumn('seq', 'integer', (c) => c.notNull())
        .addColumn('agent', 'text', (c) => c.notNull())
        .addColumn('entry', 'text')
        .addColumn('none', 'integer', (c) => c.notNull())
        .addColumn('decided', 'text', (c) => c.notNull())
        .addColumn('corrected_by', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('client', 'text', (c) => c.notNull())
        .addColumn('at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('learnables_corrections_pk', ['task_id', 'finding', 'seq'])
        .execute();
      await db.schema.createIndex('learnables_corrections_by_agent').on('learnables_corrections').columns(['agent']).execute();
    },
  },
  // A task nobody hears of before it rests (a plain send) is opened with its ledger row alone, the
  // task kept in it (`opening`) for a restart to resume from, and the SDK's row written once, at
  // rest (task-writes.ts). The index on (agent, state) became one on the running rows only, the
  // one query that needs it (`unfinished`): each opening and rest wrote two of its pages, and it
  // grew by a row a message; this one holds the tasks in flight.
  '2026-12-02-001-ledger-opening': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('learnables_tasks').addColumn('opening', 'text').execute();
      await db.schema.dropIndex('learnables_tasks_by_state').execute();
      await db.schema.createIndex('learnables_tasks_running').on('learnables_tasks').column('agent').where(sql.ref('state'), '=', sql.lit('running')).execute();
    },
  },
};

export const runtimeMigrations: MigrationProvider = { getMigrations: async () => migrations };
