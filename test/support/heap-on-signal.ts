/**
 * Preloaded (`--expose-gc --import <this>`) into a service a test watches for leaks, never into
 * the product: on SIGUSR2 the process collects all garbage and prints its memory after the
 * collection on one line. Resident memory (RSS) saws with V8's lazy collections and rarely comes
 * back down, so "memory stays flat" is judged on what is still alive after a full collection.
 *
 * One collection is not all of it: V8 frees the memory of dead ArrayBuffers (the `external` and
 * `arrayBuffers` counts: sockets' and parsers' buffers) on a background thread after the
 * collection, and objects kept only by a WeakRef or a FinalizationRegistry callback go a
 * collection later. So the process lets the event loop turn (the answers of the last requests
 * finish going out), collects, lets the background freeing finish, and collects again, before it
 * reads its memory: what is then counted is what the process still holds. It also reports the
 * bytes of compiled code apart (V8's code spaces): the JIT goes on compiling for tens of seconds of
 * traffic on a busy two-core machine, and that growth is not something the process keeps per message.
 */
import { getHeapSpaceStatistics } from 'node:v8';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

process.on('SIGUSR2', () => {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) throw new Error('heap-on-signal needs node --expose-gc');
  void (async () => {
    await pause(100);
    collect();
    await pause(100);
    collect();
    await pause(50);
    const { heapUsed, external, arrayBuffers } = process.memoryUsage();
    const code = getHeapSpaceStatistics()
      .filter((space) => space.space_name.startsWith('code'))
      .reduce((sum, space) => sum + space.space_used_size, 0);
    process.stdout.write(`heap-after-gc ${JSON.stringify({ heapUsed, external, arrayBuffers, code })}\n`);
  })();
});
