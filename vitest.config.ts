import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['shared/*/src/**/*.test.ts', 'agents/*/src/**/*.test.ts', 'stack/src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Finds or starts PostgreSQL, finds (or as root on Debian installs) Chromium.
    globalSetup: ['./shared/testing/src/global-setup.ts'],
  },
});
