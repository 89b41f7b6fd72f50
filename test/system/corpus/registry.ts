/**
 * A package registry on the host's loopback holding one package, `corpus-hello` (a bin that prints a
 * line), so that `npx corpus-hello` really fetches and runs a package in a plain run — without the
 * internet, and without a test depending on a public registry. A step without a network grant cannot
 * reach it (the sandbox's loopback is its own), which is the point of the scenario that uses it.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const PACKAGE = 'corpus-hello';
export const PACKAGE_SAYS = 'hello from corpus-hello';

export interface Registry {
  url: string;
  /** Requests it answered (a sandboxed step without network must add none). */
  hits(): number;
  close(): Promise<void>;
}

/** The package as npm publishes it: a gzipped tar of `package/`. */
function tarball(): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'pe-corpus-pkg-'));
  try {
    mkdirSync(join(dir, 'package'));
    writeFileSync(join(dir, 'package', 'package.json'), JSON.stringify({ name: PACKAGE, version: '1.0.0', bin: { [PACKAGE]: 'cli.js' } }));
    writeFileSync(join(dir, 'package', 'cli.js'), `#!/usr/bin/env node\nconsole.log(${JSON.stringify(PACKAGE_SAYS)});\n`, { mode: 0o755 });
    const r = spawnSync('tar', ['-czf', join(dir, 'p.tgz'), '-C', dir, 'package']);
    if (r.status !== 0) throw new Error(`tar failed: ${String(r.stderr)}`);
    return readFileSync(join(dir, 'p.tgz'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function startRegistry(): Promise<Registry> {
  const tgz = tarball();
  let hits = 0;
  let url = '';
  const server = createServer((req, res) => {
    hits++;
    const path = decodeURIComponent(req.url ?? '');
    if (path === `/${PACKAGE}`) {
      const dist = {
        tarball: `${url}${PACKAGE}/-/${PACKAGE}-1.0.0.tgz`,
        shasum: createHash('sha1').update(tgz).digest('hex'),
        integrity: `sha512-${createHash('sha512').update(tgz).digest('base64')}`,
      };
      const doc = {
        name: PACKAGE,
        'dist-tags': { latest: '1.0.0' },
        versions: { '1.0.0': { name: PACKAGE, version: '1.0.0', bin: { [PACKAGE]: 'cli.js' }, dist } },
      };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(doc));
    } else if (path === `/${PACKAGE}/-/${PACKAGE}-1.0.0.tgz`) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(tgz);
    } else {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return { url, hits: () => hits, close: () => new Promise((r) => server.close(() => r())) };
}
