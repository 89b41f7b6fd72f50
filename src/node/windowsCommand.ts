/**
 * Running argv on Windows without a shell where possible. `npm` is `npm.cmd` there, and since Node 20.12
 * a .cmd or .bat cannot be spawned without a shell (EINVAL, the fix for CVE-2024-27980). So:
 *   1. resolve the program through PATH and PATHEXT ourselves — absolute PATH entries only, never the
 *      working directory (a workspace file named `npm.cmd` must not win);
 *   2. an .exe or .com runs directly, argv untouched;
 *   3. a batch file runs as `cmd.exe /d /s /c "<line>"` with every argument quoted for the C runtime and
 *      each cmd.exe metacharacter escaped with ^ — twice, because a batch file hands `%*` to cmd.exe
 *      again. Arguments cmd.exe cannot be trusted with (%, !, ", line breaks) are refused for batch files;
 *   4. `NoDefaultCurrentDirectoryInExePath` is set, so cmd.exe inside the batch file does not look for
 *      programs in the working directory either.
 * We evaluated cross-spawn (the usual answer): it resolves through `which` and may `process.chdir` into
 * the working directory to do it (not something to do inside VS Code's extension host) and finds programs
 * in the current directory as cmd.exe does; the rules above are the part of it we need, stricter.
 */
import * as nodePath from 'node:path';
import { err, ok, type Result } from '../core/contracts/result';

/** What to spawn on Windows for an argv: the program (or cmd.exe for a batch file) and its command line. */
interface WindowsTarget {
  file: string;
  args: string[];
  verbatim: boolean;
  env: Record<string, string>;
}

/** The target, or why the argv cannot be run safely here. */
export type WindowsSpawn = Result<WindowsTarget, string>;

const DEFAULT_PATHEXT = '.COM;.EXE;.BAT;.CMD';
const BATCH = /\.(cmd|bat)$/i;
const CMD_META = /([()\][%!^"`<>&|;, *?])/g;

function envValue(env: Record<string, string>, name: string): string | undefined {
  const key = Object.keys(env).find((k) => k.toUpperCase() === name);
  return key === undefined ? undefined : env[key];
}

/** The full path of `program`, searched like CreateProcess would but without the current directory. */
export function resolveWindowsProgram(
  program: string,
  env: Record<string, string>,
  exists: (path: string) => boolean,
  path = nodePath.win32,
): string | undefined {
  const exts = (envValue(env, 'PATHEXT') ?? DEFAULT_PATHEXT).split(';').filter((e) => /^\.[A-Za-z0-9]+$/.test(e));
  const hasExt = exts.some((e) => program.toLowerCase().endsWith(e.toLowerCase()));
  const candidates = (base: string): string[] => (hasExt ? [base] : exts.map((e) => base + e.toLowerCase()));
  if (path.isAbsolute(program)) return candidates(program).find(exists);
  if (program.includes('/') || program.includes('\\')) return undefined; // relative paths: only inside the workspace, refused here
  for (const dir of (envValue(env, 'PATH') ?? '').split(';')) {
    if (!path.isAbsolute(dir)) continue;
    const found = candidates(path.join(dir, program)).find(exists);
    if (found) return found;
  }
  return undefined;
}

/** C runtime quoting: backslashes are literal except before a quote. */
export function quoteArgument(arg: string): string {
  if (arg !== '' && !/[\s"]/.test(arg)) return arg;
  return `"${arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\+)$/, '$1$1')}"`;
}

function escapeForCmd(arg: string, times: number): string {
  let out = quoteArgument(arg);
  for (let i = 0; i < times; i++) out = out.replace(CMD_META, '^$1');
  return out;
}

export function windowsSpawn(argv: readonly string[], env: Record<string, string>, exists: (path: string) => boolean, path = nodePath.win32): WindowsSpawn {
  const [program, ...args] = argv;
  if (program === undefined) return err('empty argv');
  const file = resolveWindowsProgram(program, env, exists, path);
  if (file === undefined) return err(`${program} was not found on PATH (PATHEXT ${envValue(env, 'PATHEXT') ?? DEFAULT_PATHEXT})`);
  const safeEnv = { ...env, NoDefaultCurrentDirectoryInExePath: '1' };
  if (!BATCH.test(file)) return ok({ file, args, verbatim: false, env: safeEnv });
  const unsafe = args.find((a) => /[%!"\r\n]/.test(a));
  if (unsafe !== undefined)
    return err(
      `${path.basename(file)} is a batch file, and cmd.exe would reinterpret the argument ${JSON.stringify(unsafe)} (%, !, " and line breaks are refused for batch files)`,
    );
  const line = [escapeForCmd(file, 1), ...args.map((a) => escapeForCmd(a, 2))].join(' ');
  const comspec = envValue(env, 'COMSPEC') ?? 'C:\\Windows\\System32\\cmd.exe';
  return ok({ file: comspec, args: ['/d', '/s', '/c', `"${line}"`], verbatim: true, env: safeEnv });
}
