// learnables-check <agent-url> [options]
import { parseArgs } from 'node:util';
import { checkAgent } from './check-agent.ts';
import { formatCheck, formatReport } from './report.ts';

export const USAGE = `Usage:
  learnables-check <agent-url> [options]     check an A2A agent that claims the learnables extension

Options for checking an agent:
  --input <file>            a file to send that makes the agent ask (.eml, .xlsx, .csv, … as bytes; .txt as text)
  --text <string>           or a text to send
  --answer <entry>          the entry to answer the question with (default: the question's first entry)
  --token <bearer>          bearer token for the agent (messages, reread, teach)
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

The fake agent, which checks a client instead, is its own package: npx -p @learnables/fake-agent learnables-fake-agent
`;

export async function main(argv: readonly string[]): Promise<number> {
  const config = {
    allowPositionals: true,
    options: {
      input: { type: 'string' },
      text: { type: 'string' },
      answer: { type: 'string' },
      token: { type: 'string' },
      authority: { type: 'string' },
      'authority-token': { type: 'string' },
      keep: { type: 'boolean' },
      timeout: { type: 'string' },
      json: { type: 'boolean' },
      quiet: { type: 'boolean' },
      'fake-agent': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  } as const;
  let parsed: ReturnType<typeof parseArgs<typeof config>>;
  try {
    parsed = parseArgs({ ...config, args: [...argv] });
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
      // The checker carries nothing of the runtime; the fake agent is a learnable agent, so it moved.
      process.stderr.write(
        'The fake agent is its own package now: npx -p @learnables/fake-agent learnables-fake-agent (in this repository: pnpm fake-agent).\n',
      );
      return 2;
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
      ...(values.authority !== undefined && {
        authority: { url: values.authority, ...(values['authority-token'] !== undefined && { token: values['authority-token'] }) },
      }),
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
