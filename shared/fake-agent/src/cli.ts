// learnables-fake-agent [--port N] [--authority-port N] [--token T] [--json]
import { parseArgs } from 'node:util';
import { createLogger } from '@learnables/authority';
import { describeFakeAgent, startFakeAgent } from './fake-agent.ts';

export const USAGE = `Usage:
  learnables-fake-agent [options]   run a learnable agent that checks a client

Options:
  --port <n>                its port (default any free port)
  --authority-port <n>      its embedded authority's port (default any free port)
  --token <bearer>          the token clients teach with (default a random one, printed)
  --json                    print where it is as one line of JSON
`;

export async function main(argv: readonly string[]): Promise<number> {
  const config = {
    options: {
      port: { type: 'string' },
      'authority-port': { type: 'string' },
      token: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  } as const;
  let values: ReturnType<typeof parseArgs<typeof config>>['values'];
  try {
    ({ values } = parseArgs({ ...config, args: [...argv] }));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const number = (raw: string | undefined, name: string): number | undefined => {
    if (raw === undefined) return undefined;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 0 || n > 65_535) throw new Error(`--${name} must be a port number, not ${JSON.stringify(raw)}.`);
    return n;
  };
  try {
    const fake = await startFakeAgent({
      ...(values.port !== undefined && { port: number(values.port, 'port') }),
      ...(values['authority-port'] !== undefined && { authorityPort: number(values['authority-port'], 'authority-port') }),
      ...(values.token !== undefined && { token: values.token }),
      // On stderr: stdout is the description a script reads (--json).
      // Warnings and errors unless LOG_LEVEL asks for more (an access line per request, say).
      logger: createLogger({ service: 'fake-agent', destination: process.stderr, ...(process.env.LOG_LEVEL === undefined && { level: 'warn' }) }),
    });
    process.stdout.write(
      values.json
        ? `${JSON.stringify({ url: fake.url, authorityUrl: fake.authorityUrl, token: fake.token, checklistUrl: fake.checklistUrl })}\n`
        : describeFakeAgent(fake),
    );
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await fake.close();
    return 0;
  } catch (error) {
    process.stderr.write(`learnables-fake-agent: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
}
