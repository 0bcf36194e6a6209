// The two native modules the services load (RE2 for taught patterns, SQLite for the embedded store),
// and what to say when one was built for another Node. An install that built them against another
// Node's headers (this happens when npm's `nodedir` setting points at an older Node, as on machines
// that set it for node-gyp) reports success; the service then died on its first import with
// ERR_DLOPEN_FAILED and a stack trace. Here it is one sentence that names the fix.
import { createRequire } from 'node:module';
import { dirname } from 'node:path';

/** Node's module ABI versions (NODE_MODULE_VERSION) and the Node line each belongs to. */
const NODE_OF_ABI = new Map([
  [108, '18'],
  [115, '20'],
  [120, '21'],
  [127, '22'],
  [131, '23'],
  [137, '24'],
  [141, '25'],
  [147, '26'],
]);

const nodeOf = (abi: number): string => (NODE_OF_ABI.has(abi) ? `Node ${NODE_OF_ABI.get(abi)} (NODE_MODULE_VERSION ${abi})` : `NODE_MODULE_VERSION ${abi}`);

export const REBUILD = 'pnpm rebuild -r re2 better-sqlite3';

/**
 * The sentence for a native module that failed to load, or undefined when the failure is something
 * else (then the error is rethrown as it is). `node` is the running Node: its version, ABI and binary.
 */
export function nativeModuleProblem(
  name: string,
  error: unknown,
  node: { readonly version: string; readonly abi: string; readonly execPath: string } = {
    version: process.version,
    abi: process.versions.modules,
    execPath: process.execPath,
  },
): string | undefined {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  const folder = dirname(dirname(node.execPath));
  const fix = `run \`${REBUILD}\` with this Node; if it builds for the wrong Node again, npm's \`nodedir\` setting points at another Node's headers (see \`npm config get nodedir\`): run \`npm_config_nodedir=${folder} ${REBUILD}\` instead.`;
  const versions = /NODE_MODULE_VERSION (\d+)\. This version of Node\.js requires\s+NODE_MODULE_VERSION (\d+)/.exec(message);
  if (versions) {
    return `${name} was built for ${nodeOf(Number(versions[1]))}, and this is Node ${node.version} (NODE_MODULE_VERSION ${versions[2]}): ${fix}`;
  }
  if (code === 'ERR_DLOPEN_FAILED' || /Could not locate the bindings file|\.node['"]?$|Cannot find module .*\.node\b/m.test(message)) {
    return `${name} has no working build for Node ${node.version} (NODE_MODULE_VERSION ${node.abi}): ${fix}`;
  }
  return undefined;
}

/**
 * Load both native modules, each from the package that depends on it, or say in one sentence why
 * one cannot be loaded. better-sqlite3 loads its addon on the first database, so one is opened in memory.
 */
export function checkNativeModules(): string | undefined {
  const checks: readonly [string, string, (loaded: unknown) => void][] = [
    ['re2', '@learnables/email-agent', (RE2) => void new (RE2 as new (pattern: string) => unknown)('a')],
    ['better-sqlite3', '@learnables/runtime', (Database) => new (Database as new (file: string) => { close(): void })(':memory:').close()],
  ];
  for (const [name, owner, use] of checks) {
    let from: string;
    try {
      from = import.meta.resolve(owner);
    } catch {
      continue; // Not installed here (a deployment without that agent): nothing to load.
    }
    try {
      use(createRequire(from)(name));
    } catch (error) {
      const problem = nativeModuleProblem(name, error);
      if (problem !== undefined) return problem;
      throw error;
    }
  }
  return undefined;
}
