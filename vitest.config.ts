import { defineConfig } from 'vitest/config';

// The workspace's packages resolve to their TypeScript source ("@learnables/source", see
// tsconfig.base.json), so no test needs a build first: in the test files (Vite's resolver) and in
// every process a test starts (`node --import tsx …`, parse threads), through NODE_OPTIONS.
const SOURCE = '@learnables/source';
if (!(process.env.NODE_OPTIONS ?? '').includes(`--conditions=${SOURCE}`)) {
  process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --conditions=${SOURCE}`.trim();
}

// The processes tests start need not each repeat that this Node is past its end of life (check-node.ts).
process.env.LEARNABLES_NODE_WARNED ??= '1';

export default defineConfig({
  resolve: { conditions: [SOURCE, 'module', 'node', 'development|production'] },
  ssr: { resolve: { conditions: [SOURCE, 'module', 'node', 'development|production'] } },
  test: {
    include: ['shared/*/src/**/*.test.ts', 'agents/*/src/**/*.test.ts', 'stack/src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Finds or starts PostgreSQL, finds (or as root on Debian installs) Chromium.
    globalSetup: ['./shared/testing/src/global-setup.ts'],
  },
});
