/** The default ports of the two services that are not agents; no agent may take them. Apart from the
 * registry so that `pnpm new-agent` can read them without importing every agent (one scaffolded but
 * not yet installed would not import). */
export const AUTHORITY_PORT = 4100;
export const CONSOLE_PORT = 4300;
