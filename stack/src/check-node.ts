// Imported first by every command that runs a service (`import './check-node.ts'` before any other
// import, so it runs before a native module is loaded): the Node it runs on, and the native modules
// built for it. One sentence and exit 1 when they were built for another Node, not a stack trace.
import { checkNativeModules } from './native-modules.ts';

const major = Number(process.versions.node.split('.')[0]);
// Said once: the services `pnpm start` runs inherit the variable.
if (major < 22 && process.env.LEARNABLES_NODE_WARNED !== '1') {
  process.env.LEARNABLES_NODE_WARNED = '1';
  console.error(
    `This is Node ${process.version}: Node ${major} ${major === 20 ? 'reached its end of life in April 2026' : 'is past its end of life'} and is not supported; the services still run on it, but use Node 24 or 22 (README, "The two commands").`,
  );
}

const problem = checkNativeModules();
if (problem !== undefined) {
  console.error(problem);
  process.exit(1);
}
