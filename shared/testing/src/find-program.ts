// Finding the programs the tests drive (a browser, a load balancer) on whatever machine runs them:
// a setting first, then the usual install paths, then a copy shipped inside an npm package, and
// last — only as root on Debian — Debian's own package, installed once and said out loud.
import { execFile, spawn } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Where a program was found, and every place looked at before it (for the failure sentence). */
export interface FoundProgram {
  readonly path: string;
  /** `setting`, `usual path`, `npm package` or `Debian package`. */
  readonly source: 'setting' | 'usual path' | 'npm package' | 'Debian package';
  readonly tried: readonly string[];
}

export interface ProgramSearch {
  /** What the program is, for sentences: "Chromium", "HAProxy". */
  readonly name: string;
  /** The environment variable that names it, e.g. CHROMIUM_PATH; its value is tried first. */
  readonly settingName: string;
  readonly setting: string | undefined;
  /** Usual install paths, in order. */
  readonly paths: readonly string[];
  /** A copy shipped inside an npm package: its path, or undefined when no package fits this machine. */
  readonly packaged?: () => Promise<string | undefined>;
  /** The Debian package that provides it and the path it installs; tried only as root where apt-get exists. */
  readonly debian?: { readonly package: string; readonly path: string; readonly why: string };
  /** Whether a candidate runs here: undefined when it does, else why not. Default: `<path> --version` exits 0. */
  readonly works?: (path: string) => Promise<string | undefined>;
  /** Whether installing with apt-get is allowed: default when running as root and /usr/bin/apt-get exists. */
  readonly mayInstall?: boolean;
  readonly log?: (line: string) => void;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Runs `<path> --version` (or another flag): cheap, and it fails when the program's shared libraries are missing. */
export async function answersVersion(path: string, flag = '--version'): Promise<string | undefined> {
  try {
    await run(path, [flag], { timeout: 30_000 });
    return undefined;
  } catch (error) {
    const message = ((error as { stderr?: string }).stderr || (error as Error).message).trim().split('\n')[0];
    return message;
  }
}

/** Install one Debian package as root (apt-get update, then apt-get install -y), its output shown. */
export async function aptInstall(pkg: string): Promise<void> {
  const step = (args: string[]) =>
    new Promise<void>((resolve, reject) => {
      const child = spawn('apt-get', args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`apt-get ${args.join(' ')} exited with ${code}`))));
    });
  await step(['update', '-qq']);
  await step(['install', '-y', '-qq', '--no-install-recommends', pkg]);
}

/** Find a program the tests need, or throw a sentence that says where it looked and what to do. */
export async function findProgram(search: ProgramSearch): Promise<FoundProgram> {
  const works = search.works ?? answersVersion;
  const log = search.log ?? ((line: string) => console.log(line));
  const tried: string[] = [];
  const consider = async (path: string, source: FoundProgram['source']): Promise<FoundProgram | undefined> => {
    if (!existsSync(path) || !executable(path)) {
      tried.push(`${path} (${source}: not there)`);
      return undefined;
    }
    const problem = await works(path);
    if (problem !== undefined) {
      tried.push(`${path} (${source}: does not run here: ${problem})`);
      return undefined;
    }
    return { path, source, tried: [...tried] };
  };

  if (search.setting !== undefined && search.setting !== '') {
    const found = await consider(search.setting, 'setting');
    if (found) return found;
    // A setting that points nowhere is a mistake to report, not a reason to pick another program.
    throw new Error(`${search.settingName} is set to ${search.setting}, but ${tried[tried.length - 1]}. Fix or unset ${search.settingName}.`);
  }
  for (const path of search.paths) {
    const found = await consider(path, 'usual path');
    if (found) return found;
  }
  if (search.packaged) {
    let path: string | undefined;
    try {
      path = await search.packaged();
    } catch (error) {
      tried.push(`the npm package (${(error as Error).message})`);
    }
    if (path !== undefined) {
      const found = await consider(path, 'npm package');
      if (found) return found;
    }
  }
  const mayInstall = search.mayInstall ?? (process.getuid?.() === 0 && existsSync('/usr/bin/apt-get'));
  if (search.debian && mayInstall) {
    log(
      `${search.name} was not found (${tried.join('; ')}). Installing Debian's ${search.debian.package} package as root (apt-get update && apt-get install -y ${search.debian.package}) ${search.debian.why}; this happens once.`,
    );
    await aptInstall(search.debian.package);
    const found = await consider(search.debian.path, 'Debian package');
    if (found) return found;
  }
  const install = search.debian ? ` Install it (on Debian: apt-get install ${search.debian.package}) or` : '';
  throw new Error(`The tests need ${search.name}, and none was found: ${tried.join('; ')}.${install} set ${search.settingName} to its path.`);
}
