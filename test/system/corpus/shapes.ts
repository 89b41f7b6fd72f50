/**
 * Pieces of ordinary projects the scenarios are made of: a small Node app whose `scripts/bump.js` makes
 * the kind of change a step makes (so that git has something to show, stage, stash and commit), a
 * TypeScript setup that compiles in a second, a self-signed TLS pair.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { installTypeScript, MINI_LIB, TS_OPTIONS } from '../sandbox/scene';
import { json, lines, nodeTest, put } from './scenario';

/** A Node app: `npm test` runs `node --test`; `node scripts/bump.js` rewrites src/version.js. */
export function nodeApp(extra: Record<string, string | Buffer> = {}, scripts: Record<string, string> = {}): Record<string, string | Buffer> {
  return {
    'package.json': json({ name: 'app', version: '1.0.0', private: true, scripts: { test: 'node --test', ...scripts } }),
    'README.md': '# app\n\nA small app.\n',
    '.gitignore': 'node_modules/\n',
    'src/version.js': 'exports.version = 1;\n',
    'scripts/bump.js': [
      "const fs = require('fs');",
      "const file = 'src/version.js';",
      "const next = Number(/(\\d+)/.exec(fs.readFileSync(file, 'utf8'))[1]) + 1;",
      'fs.writeFileSync(file, `exports.version = ${next};\\n`);',
      'console.log(`version ${next}`);',
      '',
    ].join('\n'),
    'test/version.test.js': nodeTest('has a version', "  assert.ok(require('../src/version.js').version >= 1);"),
    ...extra,
  };
}

/** The declarations a TypeScript program of these scenarios uses, without TypeScript's lib.d.ts (see MINI_LIB). */
const TS_LIB = lines(
  MINI_LIB,
  'declare const console: { log(...values: unknown[]): void };',
  'declare const process: { env: { [name: string]: string | undefined } };',
);

/** A TypeScript project: `src/lib.d.ts`, a tsconfig with `options` over the fixtures' own, tsc in node_modules. */
export function typeScriptProject(ws: string, options: Record<string, unknown> = {}): void {
  put(ws, {
    'src/lib.d.ts': TS_LIB,
    'tsconfig.json': json({ compilerOptions: { ...TS_OPTIONS, ...options }, include: ['src/**/*.ts'] }),
  });
  installTypeScript(ws);
}

/**
 * A self-signed certificate for `localhost` and its key, as an HTTPS test keeps them in its fixtures
 * (made with openssl, which the test launcher installs).
 */
export function tlsPair(dir: string): { key: string; pem: string } {
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '3650',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      join(dir, 'tls.key'),
      '-out',
      join(dir, 'tls.pem'),
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(join(dir, 'tls.key'), 'utf8'), pem: readFileSync(join(dir, 'tls.pem'), 'utf8') };
}
