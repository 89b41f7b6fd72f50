import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * One error shape in the sandbox's Node side as in the core (docs/architecture.md, "Results, not
 * exceptions"): a failure a caller acts on is a `Result` built with `err()`, never a hand-made
 * `{ ok: false, … }`; and a catch that binds no error says, on its first line, which condition it handles
 * and where the failure goes (fails open, fails closed, reported). A catch that binds the error narrows it
 * in code (fsErrors.ts) and is not checked here.
 */
const sandboxDir = join(__dirname, '..', '..', '..', 'src', 'node', 'sandbox');

function sources(): { name: string; lines: string[] }[] {
  return readdirSync(sandboxDir)
    .filter((n) => n.endsWith('.ts'))
    .map((name) => ({ name, lines: readFileSync(join(sandboxDir, name), 'utf8').split('\n') }));
}

describe('architecture: error shapes in src/node/sandbox', () => {
  it('builds every failed Result with err(), never a hand-made { ok: false } literal', () => {
    const files = sources();
    assert.ok(files.length > 10, 'expected to scan the sandbox folder');
    const offenders = files.flatMap(({ name, lines }) => lines.flatMap((line, i) => (/\bok:\s*false\b/.test(line) ? [`${name}:${i + 1}`] : [])));
    assert.deepEqual(offenders, []);
  });

  it('names the condition of every catch that binds no error, in a comment on its first line', () => {
    const offenders = sources().flatMap(({ name, lines }) =>
      lines.flatMap((line, i) => {
        if (!/\bcatch\s*\{\s*$/.test(line)) return [];
        const next = lines[i + 1] ?? '';
        return /^\s*\/\/|\/\/ \S/.test(next) ? [] : [`${name}:${i + 1}`];
      }),
    );
    assert.deepEqual(offenders, []);
  });
});
