// One thread of the parse pool (input-reader.ts). Plain JavaScript, so the thread starts whether or
// not the process can load TypeScript. A built agent's parse module is JavaScript (input-reader.ts
// picks the compiled `.js` beside a named `.ts`): the thread imports it as it is, and production
// never loads tsx. Only a TypeScript module (this repository's tests and `pnpm dev`) makes it register
// tsx first: a thread does not take over the loader hooks of `node --import tsx` (Node 20), and under
// vitest there are none to take over, so it registers its own. tsx is then the
// caller's to install (a devDependency here; never needed by built code).
let typescript;

function loadsTypeScript() {
  typescript ??= import('tsx/esm/api').then(({ register }) => {
    register();
  });
  return typescript;
}

/** Each module's exports, imported once per thread. */
const loaded = new Map();

async function exportsOf(module) {
  let exports = loaded.get(module);
  if (exports === undefined) {
    if (/\.[cm]?ts$/.test(new URL(module).pathname)) await loadsTypeScript();
    exports = await import(module);
    loaded.set(module, exports);
  }
  return exports;
}

/**
 * Parse one message's parts with the agent's own function. A refusal comes back as its sentence
 * (an Error's class does not cross threads); any other failure is thrown as it is.
 */
export default async function parseInThread({ probe, module, exportName, parts, options }) {
  // Readiness asks a thread to answer at all (InputReader.probe): nothing is imported or read.
  if (probe === true) return { probe: true };
  const exports = await exportsOf(module);
  const parse = exports[exportName];
  if (typeof parse !== 'function') throw new TypeError(`${module} has no function named ${exportName} to parse with.`);
  try {
    return { input: await parse(parts, options) };
  } catch (error) {
    if (error instanceof Error && error.name === 'InputRefused') return { refused: error.message };
    throw error;
  }
}
