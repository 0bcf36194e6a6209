// `pnpm demo:handling`: the handling agent's six weeks, twice, each on a fresh stack of its own in
// this process (the authority and the agent): learning on, then learning off. Prints questions per
// 100 per week side by side and the rollback check. --update-docs writes docs/scenario/handling.md.
import '../check-node.ts';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatHandlingComparison, runHandlingScenario, startHandlingStack } from './handling-scenario.ts';
import type { HandlingScenarioResult } from './handling-scenario.ts';
import { DOCS_DIR } from './report.ts';

async function run(learning: 'on' | 'off'): Promise<HandlingScenarioResult> {
  const stack = await startHandlingStack();
  try {
    return await runHandlingScenario({ ...stack, learning });
  } finally {
    await stack.close();
  }
}

const on = await run('on');
const off = await run('off');
const table = formatHandlingComparison(on, off);
console.log(table);
for (const problem of [...on.problems, ...off.problems]) console.error(problem);
if (process.argv.includes('--update-docs')) {
  const page = `# The handling agent's six weeks\n\nWritten by \`pnpm demo:handling --update-docs\` (stack/src/demo/handling-demo-main.ts) from\n\`agents/handling/fixtures/scenario.json\`: each week 20 consignments from regular shippers, who describe\nthe same goods the same way week after week, and 20 one-off descriptions. A simulated operator answers\nevery question from the ground truth; with learning on, it also confirms the suggested example (the\ndescription itself) as a lesson to the handling it answered. The agent decides with a classifier\n(\`decidedBy: "hybrid"\`): a lesson is one example among many, and the very description it teaches.\n\n${table}\n\nThe rules-only column is the baseline on the same stream: only exact taught phrases decide (the seed's\nexamples and every description answered before), so it stops asking about the regulars' goods and asks\nabout every one-off. The model also decides one-offs described in words it was taught elsewhere. Its\n"wrong, not asked" count is what that costs: a description the classifier was sure of (the rule: not\nunder 0.8, and not within 0.15 of the next) and wrong about. \`stack/src/demo/handling-scenario.test.ts\`\nholds the falling line and the rollback to every CI run.\n`;
  writeFileSync(join(DOCS_DIR, 'handling.md'), page);
  console.log(`\nwrote ${join(DOCS_DIR, 'handling.md')}`);
}
if (on.problems.length + off.problems.length > 0 || on.rollback?.same !== true) process.exit(1);
