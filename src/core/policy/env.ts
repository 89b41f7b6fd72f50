import * as nodePath from 'node:path';

/**
 * The environment a command runs with. Built UP from a short allowlist, never down from process.env: a
 * denylist misses the one variable nobody thought of. Even an allowlisted name is dropped when it looks
 * like it carries a secret, and NODE_OPTIONS-style variables that inject code are never allowlisted.
 */

/** Names copied when present. Locale (LC_*) variables are matched by prefix. */
export const ENV_ALLOWLIST = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TERM',
  'COLORTERM',
  'TZ',
  'TMPDIR',
  'TMP',
  'TEMP',
  'NO_COLOR',
  'FORCE_COLOR',
  'CI',
  'XDG_CACHE_HOME',
  'XDG_CONFIG_HOME',
  'XDG_DATA_HOME',
  'XDG_RUNTIME_DIR',
  // Windows essentials: without them many programs cannot start.
  'SYSTEMROOT',
  'SystemRoot',
  'COMSPEC',
  'ComSpec',
  'PATHEXT',
  'WINDIR',
  'APPDATA',
  'LOCALAPPDATA',
  'USERPROFILE',
  'PROGRAMFILES',
] as const;

/** Any name matching this is dropped, whatever list it came from. */
export const SECRET_NAME = /(KEY|TOKEN|SECRET|PASSW|PASSPHRASE|CREDENTIAL|AUTH|COOKIE|SESSION|PRIVATE|API_?KEY|ACCESS|PWD)/i;

export interface ScrubOptions {
  /** Extra names the user allowed (still subject to SECRET_NAME). */
  allow?: string[];
  /** Values to set after scrubbing (e.g. CI=1, NO_COLOR=1); names still subject to SECRET_NAME. */
  set?: Record<string, string>;
}

export function scrubEnv(source: Record<string, string | undefined>, options: ScrubOptions = {}): Record<string, string> {
  const allowed = new Set<string>([...ENV_ALLOWLIST, ...(options.allow ?? [])]);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined || SECRET_NAME.test(name)) continue;
    if (!allowed.has(name) && !/^LC_[A-Z]+$/.test(name)) continue;
    if (/[\0\r\n]/.test(value)) continue;
    out[name] = name.toUpperCase() === 'PATH' ? absolutePathEntries(value) : value;
  }
  for (const [name, value] of Object.entries(options.set ?? {})) {
    if (!SECRET_NAME.test(name)) out[name] = value;
  }
  return out;
}

/**
 * PATH without empty or relative entries: `::`, `.` or `bin` would resolve a program name against the
 * working directory — the workspace — so a file named `npm` there would run instead of npm.
 */
export function absolutePathEntries(value: string, delimiter = nodePath.delimiter): string {
  return value
    .split(delimiter)
    .filter((entry) => entry.length > 0 && nodePath.isAbsolute(entry))
    .join(delimiter);
}
