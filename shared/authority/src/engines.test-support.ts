import { scratchDir, scratchPostgres } from '@learnables/testing';

/** Each engine the authority runs on, with a way to make a fresh store URL for one suite. */
export const engines = [
  {
    name: 'SQLite',
    async fresh() {
      const dir = scratchDir('authority-');
      return { url: `sqlite:${dir.path}/authority.db`, dispose: async () => dir.remove() };
    },
  },
  {
    name: 'PostgreSQL',
    async fresh() {
      const db = await scratchPostgres('authority');
      return { url: db.url, dispose: () => db.drop() };
    },
  },
] as const;
