/**
 * Preloaded (`--expose-gc --import <this>`) into a service a test watches for leaks, never into
 * the product: on SIGUSR2 the process collects all garbage and prints its memory after the
 * collection on one line. Resident memory (RSS) saws with V8's lazy collections and rarely comes
 * back down, so "memory stays flat" is judged on what is still alive after a full collection.
 */
process.on('SIGUSR2', () => {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) throw new Error('heap-on-signal needs node --expose-gc');
  collect();
  const { heapUsed, external, arrayBuffers } = process.memoryUsage();
  process.stdout.write(`heap-after-gc ${JSON.stringify({ heapUsed, external, arrayBuffers })}\n`);
});
