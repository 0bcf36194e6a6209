// Asks GET <url> every few milliseconds from its own process, and prints one line per answer:
// when it was sent (ms since the epoch) and how long it took. The event loop measured is the
// agent's, not this one's.
const [url = '', every = '5'] = process.argv.slice(2);
// The benchmark stops reading when it is done: that is the end of this process too.
process.stdout.on('error', () => process.exit(0));
const tick = async () => {
  const sent = performance.timeOrigin + performance.now();
  const started = performance.now();
  try {
    await (await fetch(url)).arrayBuffer();
    process.stdout.write(`${sent.toFixed(1)} ${(performance.now() - started).toFixed(2)}\n`);
  } catch {
    process.stdout.write(`${sent.toFixed(1)} error\n`);
  }
  setTimeout(tick, Number(every));
};
void tick();
