// `pnpm console-user`: the console's accounts, in its users file (--file, else CONSOLE_USERS_FILE,
// else data/console-users of the local stack).
//
//   pnpm console-user add <name> [--generate]   add a user, or change a user's password
//   pnpm console-user remove <name>             remove a user (their sessions end)
//   pnpm console-user list                      the users' names
//   pnpm console-user hash <name>               print a users-file line, writing nothing
//
// The password is asked twice, unseen, on a terminal; otherwise the first line of standard input is
// the password (`printf '%s\n' "$PW" | pnpm console-user add dana`). --generate makes and prints one.
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { read } from 'read';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, hashPassword, nameProblem, parseUsers, userLine } from '@learnables/console';
import { forgetFirstPassword, generatePassword, removeUser, setUser, usersFilePath } from './console-accounts.ts';

const USAGE = `usage: pnpm console-user add <name> [--generate] [--file <users file>]
       pnpm console-user remove <name> [--file <users file>]
       pnpm console-user list [--file <users file>]
       pnpm console-user hash <name> [--generate]`;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

async function stdinLine(): Promise<string> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    length += chunk.length;
    if (length > 4 * MAX_PASSWORD_LENGTH + 4) break;
  }
  return Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '';
}

async function password(name: string, generate: boolean): Promise<string> {
  if (generate) return generatePassword();
  let typed: string;
  if (process.stdin.isTTY) {
    typed = await read({ prompt: `Password for ${name}: `, silent: true, replace: '' });
    const again = await read({ prompt: 'The same password again: ', silent: true, replace: '' });
    if (typed !== again) fail('The two passwords differ; nothing was changed.');
  } else {
    typed = await stdinLine();
  }
  if (typed.length < MIN_PASSWORD_LENGTH) fail(`A password of at least ${MIN_PASSWORD_LENGTH} characters, please (or --generate one); nothing was changed.`);
  if (typed.length > MAX_PASSWORD_LENGTH) fail(`A password of at most ${MAX_PASSWORD_LENGTH} characters, please; nothing was changed.`);
  return typed;
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { file: { type: 'string' }, generate: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } },
});
const [command, rawName, ...extra] = positionals;
if (values.help || !command) {
  console.log(USAGE);
  process.exit(values.help ? 0 : 2);
}
const path = usersFilePath(process.env, values.file);
const name = rawName?.trim().normalize('NFC') ?? '';
if (extra.length > 0) fail(`One name at a time (put a name with spaces in quotes).\n${USAGE}`);
const named = () => {
  if (!rawName) fail(`Name the user.\n${USAGE}`);
  const problem = nameProblem(name);
  if (problem) fail(`That name cannot be used: ${problem}.`);
  return name;
};

try {
  switch (command) {
    case 'add': {
      const user = named();
      const chosen = await password(user, values.generate);
      const done = await setUser(path, user, chosen);
      forgetFirstPassword(path, user);
      console.log(`${done === 'added' ? 'Added' : 'Changed the password of'} ${user} in ${path}.${done === 'changed' ? ' Their sessions have ended.' : ''}`);
      if (values.generate) console.log(`Password: ${chosen}`);
      break;
    }
    case 'remove': {
      const user = named();
      if (!existsSync(path)) fail(`${path} does not exist; there is nobody to remove.`);
      if (!removeUser(path, user)) fail(`${user} is not in ${path}; nothing was changed.`);
      forgetFirstPassword(path, user);
      console.log(`Removed ${user} from ${path}. Their sessions have ended.`);
      break;
    }
    case 'list': {
      if (!existsSync(path)) fail(`${path} does not exist yet; add a user with pnpm console-user add <name>.`);
      for (const account of parseUsers(readFileSync(path, 'utf8'), path).keys()) console.log(account);
      break;
    }
    case 'hash': {
      const user = named();
      const chosen = await password(user, values.generate);
      console.log(userLine(user, await hashPassword(chosen)));
      if (values.generate) console.error(`Password: ${chosen}`);
      break;
    }
    default:
      fail(`There is no "${command}" command.\n${USAGE}`);
  }
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
