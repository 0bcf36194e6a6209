// Runs the authority on its own: `pnpm authority`. Configuration is by environment (see README).
import './check-node.ts';
import { startTracing } from '@learnables/tracing';
import { join } from 'node:path';
import { Authority, authorityService, loadSeeds, openStore } from '@learnables/authority';
import { AUTHORITY_PORT, learnableKinds, seedFolders } from './registry.ts';
import { LOCAL_DEV_TOKEN, commitWaitFrom, parseTokens, portFrom, repoRoot, wholeFrom } from './config.ts';
import { serviceLogger } from './service-logger.ts';

const logger = serviceLogger('authority');

const port = portFrom(process.env.AUTHORITY_PORT, AUTHORITY_PORT, 'AUTHORITY_PORT');
const host = process.env.AUTHORITY_HOST ?? '127.0.0.1';
const storeUrl = process.env.AUTHORITY_STORE ?? `sqlite:${join(repoRoot, 'data', 'authority.db')}`;
const tokens = parseTokens(process.env.AUTHORITY_TOKENS);
// Every replica sharing the store must be given the same wait (SPEC §4.4).
const commitWaitMs = commitWaitFrom(process.env.AUTHORITY_COMMIT_WAIT_MS);
// The change feed is anonymous: how many streams it keeps open, in all and to one address.
const streamsTotal = wholeFrom(process.env.AUTHORITY_MAX_CHANGE_STREAMS, 1, 'AUTHORITY_MAX_CHANGE_STREAMS');
const streamsPerAddress = wholeFrom(process.env.AUTHORITY_MAX_CHANGE_STREAMS_PER_ADDRESS, 1, 'AUTHORITY_MAX_CHANGE_STREAMS_PER_ADDRESS');

// Traces go to OTEL_EXPORTER_OTLP_ENDPOINT when it is set (docs/tracing.md); nothing is done otherwise.
const tracing = await startTracing('learnables-authority');
const store = await openStore(storeUrl);
// The store listens again by itself; the operator should still know the feed had a gap.
store.onFeedError((error) => logger.warn({ err: error }, 'the change feed lost its connection and is reconnecting'));
const authority = new Authority({ store, kinds: learnableKinds, commitWaitMs });
// Each collection is seeded once, on first start, from the first folder that holds its file:
// SEEDS_DIR if set (an operator's own version 1), then each registered agent's own seeds.
const seeded: string[] = [];
for (const folder of [...(process.env.SEEDS_DIR ? [process.env.SEEDS_DIR] : []), ...seedFolders]) seeded.push(...(await loadSeeds(authority, folder)));
// AUTHORITY_HOSTS: the names the authority is reached by besides the loopback ones (e.g. "authority" in compose).
const changeStreams = { ...(streamsTotal !== undefined && { total: streamsTotal }), ...(streamsPerAddress !== undefined && { perAddress: streamsPerAddress }) };
const server = authorityService({
  authority,
  tokens,
  changeStreams,
  logger,
  ...(process.env.AUTHORITY_HOSTS && { hosts: process.env.AUTHORITY_HOSTS }),
}).listen(port, host, () => {
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  logger.info(
    { url: `http://${host}:${bound}`, engine: authority.store.engine, seeded },
    `authority listening on http://${host}:${bound} (${authority.store.engine}${seeded.length ? `; seeded ${seeded.join(', ')}` : ''})`,
  );
  if (tokens.has(LOCAL_DEV_TOKEN)) {
    logger.warn(`writes accept the local development token "${LOCAL_DEV_TOKEN}"; set AUTHORITY_TOKENS beyond your own machine`);
  }
});

const stop = () => {
  server.close();
  server.closeAllConnections();
  void authority
    .close()
    .then(() => tracing.shutdown())
    .then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
