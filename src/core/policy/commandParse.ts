/**
 * Turns a command line into argv WITHOUT a shell, refusing anything whose meaning depends on a shell.
 * We never run a shell, so the danger is not expansion itself but the gap between what the user reads in
 * the approval prompt and what runs: `a; b`, `$(…)`, `*`, `~` or a hidden escape sequence would all look
 * like one thing and be another. So the grammar accepted here is small and exact:
 *   words separated by spaces; 'single quotes' (literal); "double quotes" (literal except \" \\ \$ \`;
 *   an unescaped $ or ` inside is refused); a backslash outside quotes makes the next character literal.
 * Everything else that a shell would treat specially, unquoted, is refused with a named rule.
 */
import { ok, type Result } from '../contracts/result';
import { deny, type PolicyDenial } from './denial';

/** A command line as argv; `wildcard`: it ends in the allowlist's `*`. */
export type ParsedCommand = { argv: string[]; wildcard: boolean };
export type ParseResult = Result<ParsedCommand, PolicyDenial>;

export const MAX_COMMAND_LENGTH = 4096;

const INVISIBLE = /[\u00AD\u061C\u180E\u200B-\u200F\u2028-\u202E\u2060-\u206F\uFEFF]/;

const UNQUOTED_REFUSALS: Record<string, [string, string]> = {
  ';': ['command.chaining', 'command chaining (;) is not allowed: run one command per call'],
  '&': ['command.chaining', 'chaining or backgrounding (&, &&) is not allowed: run one command per call'],
  '|': ['command.pipe', 'pipes (|, ||) are not allowed: run one command per call'],
  '<': ['command.redirection', 'redirection (<) is not allowed'],
  '>': ['command.redirection', 'redirection (>) is not allowed: output is captured for you'],
  '(': ['command.subshell', 'subshells and grouping ( ) are not allowed'],
  ')': ['command.subshell', 'subshells and grouping ( ) are not allowed'],
  '`': ['command.backtick', 'backtick command substitution is not allowed'],
  '*': ['command.glob', 'unquoted glob characters are not allowed (commands run without a shell); quote the argument'],
  '?': ['command.glob', 'unquoted glob characters are not allowed (commands run without a shell); quote the argument'],
  '[': ['command.glob', 'unquoted glob characters are not allowed (commands run without a shell); quote the argument'],
  ']': ['command.glob', 'unquoted glob characters are not allowed (commands run without a shell); quote the argument'],
  '{': ['command.brace_expansion', 'unquoted braces are not allowed (no brace expansion without a shell); quote the argument'],
  '}': ['command.brace_expansion', 'unquoted braces are not allowed (no brace expansion without a shell); quote the argument'],
  '!': ['command.history', 'unquoted ! is not allowed'],
};

function refuse(rule: string, reason: string): ParseResult {
  return deny(rule, reason);
}

/** Control characters, ANSI escapes and invisible/bidi characters can hide a command inside an approval prompt. */
export function findHiddenCharacters(text: string): PolicyDenial | undefined {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || c === 0x0d) return { rule: 'command.newline', reason: 'newlines are not allowed in a command' };
    if (c === 0x1b || c === 0x9b) return { rule: 'command.ansi_escape', reason: 'ANSI escape sequences are not allowed in a command' };
    if (c < 0x20 || c === 0x7f || (c >= 0x80 && c <= 0x9f)) {
      return { rule: 'command.control_chars', reason: `control character U+${c.toString(16).padStart(4, '0')} is not allowed in a command` };
    }
  }
  if (INVISIBLE.test(text)) return { rule: 'command.invisible_chars', reason: 'invisible or bidirectional-override characters are not allowed in a command' };
  return undefined;
}

/**
 * `pattern: true` parses an allowlist entry, where a final unquoted `*` word means "any further arguments".
 */
export function parseCommand(command: string, options: { pattern?: boolean } = {}): ParseResult {
  if (typeof command !== 'string') return refuse('command.invalid', 'command must be a string');
  if (command.length > MAX_COMMAND_LENGTH) return refuse('command.too_long', `command is longer than ${MAX_COMMAND_LENGTH} characters`);
  const hidden = findHiddenCharacters(command);
  if (hidden) return refuse(hidden.rule, hidden.reason);

  const argv: string[] = [];
  let wildcard = false;
  let word = '';
  let inWord = false;
  let i = 0;
  const n = command.length;
  const endWord = (): void => {
    if (inWord) argv.push(word);
    word = '';
    inWord = false;
  };

  while (i < n) {
    const c = command[i] as string;
    if (c === ' ') {
      endWord();
      i++;
      continue;
    }
    if (wildcard) return refuse('command.invalid_pattern', 'in an allowlist pattern, * may only be the last word');
    if (c === "'") {
      const close = command.indexOf("'", i + 1);
      if (close === -1) return refuse('command.unterminated_quote', 'unterminated single quote');
      word += command.slice(i + 1, close);
      inWord = true;
      i = close + 1;
      continue;
    }
    if (c === '"') {
      i++;
      let closed = false;
      while (i < n) {
        const d = command[i] as string;
        if (d === '"') {
          closed = true;
          i++;
          break;
        }
        if (d === '\\') {
          const next = command[i + 1];
          if (next === undefined) break;
          if (next === '"' || next === '\\' || next === '$' || next === '`') word += next;
          else word += d + next;
          i += 2;
          continue;
        }
        if (d === '$')
          return refuse(
            command[i + 1] === '(' ? 'command.substitution' : 'command.expansion',
            'variable expansion and command substitution ($) are not allowed, even in double quotes; use single quotes for a literal $',
          );
        if (d === '`') return refuse('command.backtick', 'backtick command substitution is not allowed');
        word += d;
        i++;
      }
      if (!closed) return refuse('command.unterminated_quote', 'unterminated double quote');
      inWord = true;
      continue;
    }
    if (c === '\\') {
      const next = command[i + 1];
      if (next === undefined) return refuse('command.trailing_backslash', 'a command may not end with a backslash');
      word += next;
      inWord = true;
      i += 2;
      continue;
    }
    if (c === '$') {
      const next = command[i + 1];
      if (next === '(') return refuse('command.substitution', 'command substitution $( ) is not allowed');
      return refuse('command.expansion', 'variable and parameter expansion ($) is not allowed (commands run without a shell)');
    }
    if ((c === '<' || c === '>') && command[i + 1] === '(') return refuse('command.process_substitution', 'process substitution <( ) >( ) is not allowed');
    if (!inWord && c === '~') return refuse('command.tilde', 'a word starting with ~ is not allowed (no home-directory expansion without a shell)');
    if (!inWord && c === '#') return refuse('command.comment', 'a word starting with # would be a shell comment; quote it');
    if (c === '*' && options.pattern && !inWord && (command[i + 1] === undefined || command[i + 1] === ' ')) {
      wildcard = true;
      i++;
      continue;
    }
    const refusal = UNQUOTED_REFUSALS[c];
    if (refusal) return refuse(refusal[0], refusal[1]);
    word += c;
    inWord = true;
    i++;
  }
  endWord();
  if (argv.length === 0) return refuse('command.empty', 'empty command');
  const first = argv[0] as string;
  if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(first)) return refuse('command.assignment_prefix', 'variable-assignment prefixes (NAME=value cmd) are not allowed');
  if (first.length === 0) return refuse('command.empty', 'the program name is empty');
  return ok({ argv, wildcard });
}
