/**
 * Allowlist matching for evidence commands at plan-validation time. The pattern language is the one
 * AuthoritySchema documents: `npm test` allows exactly that argv, a trailing ` *` allows extra arguments.
 * Tokenising here is deliberately simple (whitespace, single and double quotes); the sandbox's command
 * parser is authoritative at run time and refuses anything it cannot parse. A plan whose evidence command
 * passes here but fails there is refused then, with the policy's reason — never run.
 */

/** Splits a command line into argv; null when quotes are unbalanced. */
function splitCommand(command: string): string[] | null {
  const argv: string[] = [];
  let current = '';
  let inToken = false;
  let quote: '"' | "'" | null = null;
  for (const ch of command.trim()) {
    if (quote) {
      if (ch === quote) quote = null;
      else current += ch;
      continue;
    }
    if (ch === '"' || ch === "'") {
      quote = ch;
      inToken = true;
    } else if (/\s/.test(ch)) {
      if (inToken) argv.push(current);
      current = '';
      inToken = false;
    } else {
      current += ch;
      inToken = true;
    }
  }
  if (quote) return null;
  if (inToken) argv.push(current);
  return argv;
}

/** True when `command` is allowed by one of the patterns. */
export function commandAllowedBy(command: string, patterns: readonly string[]): boolean {
  const argv = splitCommand(command);
  if (!argv || argv.length === 0) return false;
  return patterns.some((pattern) => {
    const want = splitCommand(pattern);
    if (!want || want.length === 0) return false;
    const open = want[want.length - 1] === '*';
    const fixed = open ? want.slice(0, -1) : want;
    if (open ? argv.length < fixed.length : argv.length !== fixed.length) return false;
    return fixed.every((token, i) => token === argv[i]);
  });
}
