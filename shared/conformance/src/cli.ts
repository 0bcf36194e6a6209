// learnables-check <agent-url> [options] | learnables-check --fake-agent [--port N]
import { parseArgs } from 'node:util';
import { createLogger } from '@learnables/authority';
import { checkAgent } from './check-agent.ts';
import { describeFakeAgent, startFakeAgent } from './fake-agent.ts';
import { formatCheck, formatReport } from './report.ts';

export const USAGE = `Usage:
  learnables-check <agent-url> [options]     check an A2A agent that claims the learnables extension
  learnables-check --fake-agent [--port N]   run an agent that checks a client instead

Options for checking an agent:
  --input <file>            a file to send that makes the agent ask (.eml, .xlsx, .csv, … as bytes; .txt as text)
  --text <string>           or a text to send
  --answer <entry>          the entry to answer the question with (default: the question's first entry)
  --token <bearer>          bearer token for the agent (messages, reread, teach)
  --card-key <file>         a public key (JWK, JWK Set or PEM) to verify the card's signatures with
                            (default: the key the signature's jku names, fetched from the card's origin only)
  --authority <url>         a learnables authority: publishes the lesson when the agent has no teach method,
                            and rolls back what the run taught afterwards
  --authority-token <t>     bearer token for the authority
  --keep                    leave what the run taught in place
  --timeout <seconds>       per request (default 30)
  --json                    print the report as JSON
  --quiet                   print only the report, no progress

Without --input or --text the card's skill examples are tried; when none makes the agent ask, the
input-dependent checks are reported as SKIP, not PASS; so are the checks of what the declaration does
not offer (admitsNone, addsEntries, preview, retract). The run teaches the agent the suggestion of its
own question (that is how pinning is tested), adds entries named "learnables-check <tag>" and retracts
what it taught: point it at a test deployment, and give --authority so it can roll all of it back
(without one it retracts what it published). Exit code: 0 when nothing failed, 1 when a check failed,
2 on bad usage, 3 when nothing failed but no input made the agent ask.

Options for the fake agent:
  --port <n>                its port (default any free port)
  --authority-port <n>      its embedded authority's port (default any free port)
  --token <bearer>          the token clients teach with (default a random one, printed)
`;

export async function main(argv: readonly string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        input: { type: 'string' },
        text: { type: 'string' },
        answer: { type: 'string' },
        token: { type: 'string' },
        'card-key': { type: 'string' },
        authority: { type: 'string' },
        'authority-token': { type: 'string' },
        keep: { type: 'boolean' },
        timeout: { type: 'string' },
        json: { type: 'boolean' },
        quiet: { type: 'boolean' },
        'fake-agent': { type: 'boolean' },
        port: { type: 'string' },
        'authority-port': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const number = (raw: string | undefined, name: string): number | undefined => {
    if (raw === undefined) return undefined;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a number, not ${JSON.stringify(raw)}.`);
    return n;
  };

  try {
    if (values['fake-agent']) {
      const fake = await startFakeAgent({
        ...(values.port !== undefined && { port: number(values.port, 'port') }),
        ...(values['authority-port'] !== undefined && { authorityPort: number(values['authority-port'], 'authority-port') }),
        ...(values.token !== undefined && { token: values.token }),
        // On stderr: stdout is the description a script reads (--json).
        // Warnings and errors unless LOG_LEVEL asks for more (an access line per request, say).
        logger: createLogger({ service: 'fake-agent', destination: process.stderr, ...(process.env.LOG_LEVEL === undefined && { level: 'warn' }) }),
      });
      process.stdout.write(values.json ? `${JSON.stringify({ url: fake.url, authorityUrl: fake.authorityUrl, token: fake.token, checklistUrl: fake.checklistUrl })}\n` : describeFakeAgent(fake));
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      await fake.close();
      return 0;
    }

    const [agentUrl, ...extra] = positionals;
    if (!agentUrl || extra.length > 0) {
      process.stderr.write(`${agentUrl ? `Unexpected arguments: ${extra.join(' ')}` : 'Give the agent URL.'}\n\n${USAGE}`);
      return 2;
    }
    if (values.input !== undefined && values.text !== undefined) {
      process.stderr.write('Give --input or --text, not both.\n');
      return 2;
    }
    if (values['authority-token'] !== undefined && values.authority === undefined) {
      process.stderr.write('--authority-token needs --authority.\n');
      return 2;
    }
    const timeout = number(values.timeout, 'timeout');
    const progress = !values.json && !values.quiet && process.stderr.isTTY;
    const report = await checkAgent(agentUrl, {
      ...(values.input !== undefined && { inputFile: values.input }),
      ...(values.text !== undefined && { text: values.text }),
      ...(values.answer !== undefined && { answer: values.answer }),
      ...(values.token !== undefined && { token: values.token }),
      ...(values['card-key'] !== undefined && { cardKey: values['card-key'] }),
      ...(values.authority !== undefined && { authority: { url: values.authority, ...(values['authority-token'] !== undefined && { token: values['authority-token'] }) } }),
      ...(values.keep && { keep: true }),
      ...(timeout !== undefined && { timeoutMs: timeout * 1000 }),
      ...(progress && { onCheck: (check) => process.stderr.write(`${formatCheck(check)}\n`) }),
    });
    if (progress) process.stderr.write('\n');
    process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
    // 3, not 0: a run whose input-dependent checks could not run proves nothing about them.
    return report.counts.fail > 0 ? 1 : report.needsInput !== undefined ? 3 : 0;
  } catch (error) {
    process.stderr.write(`learnables-check: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
}

// Run directly (`tsx src/cli.ts …`); the bin script calls main() itself.
if (/[\\/]cli\.ts$/.test(process.argv[1] ?? '')) {
  process.exitCode = await main(process.argv.slice(2));
}
