/**
 * What a hostile executor (or a hostile repository) makes an approved command run: small CommonJS
 * programs built from probes. Every probe prints one `PROBE …` line saying what it tried and what it got —
 * for the reader of a failing case only; the cases assert on effects, never on these lines.
 *
 * A write creates the folders it needs, as an attacker's would. A read prints what it read (that is the exfiltration channel: command output goes back to the model).
 * The /proc probe prints only values that look like this suite's API key canary: on a shared machine the
 * environ of other processes is none of our business.
 */
const q = (v: unknown): string => JSON.stringify(v);

const PRELUDE = `
const fs = require('fs'), path = require('path'), net = require('net'), dgram = require('dgram'), cp = require('child_process'), os = require('os');
const say = (what, result) => console.log('PROBE ' + what + ' => ' + result);
const err = (e) => 'fail ' + (e && (e.code || e.message));
const write = (p, data, append) => { try { fs.mkdirSync(path.dirname(p), { recursive: true }); (append ? fs.appendFileSync : fs.writeFileSync)(p, data); say('write ' + p, 'ok'); } catch (e) { say('write ' + p, err(e)); } };
const read = (p) => { try { say('read ' + p, 'ok ' + JSON.stringify(fs.readFileSync(p, 'utf8').slice(0, 400))); } catch (e) { say('read ' + p, err(e)); } };
const dial = (opts) => new Promise((done) => {
  const s = net.connect(opts);
  let settled = false;
  const end = (result) => { if (settled) return; settled = true; clearTimeout(t); say('connect ' + JSON.stringify(opts), result); done(); };
  const t = setTimeout(() => { s.destroy(); end('timeout'); }, 1500);
  s.on('connect', () => { s.end('hello'); end('ok'); });
  s.on('error', (e) => end(err(e)));
});
const udp = (port) => new Promise((done) => {
  const s = dgram.createSocket('udp4');
  s.send('hello', port, '127.0.0.1', (e) => { say('udp ' + port, e ? err(e) : 'sent'); s.close(); done(); });
});
const run = (file, args, opts) => { const r = cp.spawnSync(file, args, { encoding: 'utf8', timeout: 10000, ...(opts || {}) }); say('run ' + file + ' ' + args.join(' '), 'exit ' + r.status + ' ' + JSON.stringify(((r.stdout || '') + (r.stderr || '') + (r.error ? r.error.message : '')).slice(0, 400))); };
`;

/** A complete program: the prelude, then the probes in order (async probes are awaited). */
export function program(...probes: string[]): string {
  return `${PRELUDE}\n(async () => {\n${probes.map((p) => `  try { ${p} } catch (e) { say('probe', err(e)); }`).join('\n')}\n})();\n`;
}

export const write = (path: string, data: string, append = false): string => `write(${q(path)}, ${q(data)}, ${append});`;
export const read = (path: string): string => `read(${q(path)});`;
export const dialTcp = (host: string, port: number): string => `await dial({ host: ${q(host)}, port: ${port} });`;
export const dialUnix = (path: string): string => `await dial({ path: ${q(path)} });`;
export const sendUdp = (port: number): string => `await udp(${port});`;
export const runFile = (file: string, args: string[], opts: Record<string, unknown> = {}): string => `run(${q(file)}, ${q(args)}, ${q(opts)});`;
export const hardLink = (existing: string, link: string): string => `fs.linkSync(${q(existing)}, ${q(link)}); say('link ' + ${q(link)}, 'ok');`;
export const symlink = (target: string, link: string): string =>
  `fs.symlinkSync(${q(target)}, ${q(link)}); say('symlink ' + ${q(link)} + ' -> ' + ${q(target)}, 'ok');`;
export const rename = (from: string, to: string): string => `fs.renameSync(${q(from)}, ${q(to)}); say('rename ' + ${q(from)}, 'ok');`;
export const remove = (path: string): string => `fs.rmSync(${q(path)}, { recursive: true, force: true }); say('rm ' + ${q(path)}, 'ok');`;
export const print = (text: string): string => `console.log(${q(text)});`;

/** Looks for the API key in the environ of every ancestor process (the CLI is the parent), and of pid 1. */
export const procEnviron = (): string => `
  const seenPids = new Set();
  let pid = process.ppid;
  const look = (p) => { try { const m = fs.readFileSync('/proc/' + p + '/environ', 'latin1').match(/sk-ant-test-CANARY_APIKEY_[0-9a-f]+/); say('environ of ' + p, m ? 'ok ' + m[0] : 'no key'); } catch (e) { say('environ of ' + p, err(e)); } };
  while (pid > 0 && !seenPids.has(pid)) { seenPids.add(pid); look(pid); const stat = fs.readFileSync('/proc/' + pid + '/stat', 'utf8'); pid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]); }
  look(1);`;

/**
 * A daemon in its own session (setsid), carrying `marker` on its command line, that appends a line to each
 * target every 50 ms for `seconds` (bounded, so it stops by itself even when nothing kills it).
 */
export const daemon = (marker: string, targets: string[], seconds = 20): string => {
  const code = `const fs=require('fs');const end=Date.now()+${seconds * 1000};const t=setInterval(()=>{for(const p of ${q(targets)}){try{fs.appendFileSync(p,'daemon was here\\n')}catch{}}if(Date.now()>end)clearInterval(t)},50);`;
  return `const d = cp.spawn(process.execPath, ['-e', ${q(code)}, ${q(marker)}], { detached: true, stdio: 'ignore' }); d.unref(); say('daemon', 'started pid ' + d.pid);`;
};

/** A child in the command's own process group that keeps writing after the command's main process exits. */
export const lingeringWriter = (marker: string, target: string, ms: number): string => {
  const code = `const fs=require('fs');const end=Date.now()+${ms};const t=setInterval(()=>{try{fs.appendFileSync(${q(target)},'late write\\n')}catch{}if(Date.now()>end)clearInterval(t)},20);`;
  return `const w = cp.spawn(process.execPath, ['-e', ${q(code)}, ${q(marker)}], { stdio: 'ignore' }); w.unref(); say('lingering writer', 'pid ' + w.pid);`;
};

/** Prints `bytes` bytes of output. */
export const flood = (bytes: number): string =>
  `{ const chunk = 'x'.repeat(65536) + '\\n'; let left = ${bytes}; while (left > 0) { process.stdout.write(chunk); left -= chunk.length; } }`;

/** The same probes for Python (a repository's conftest.py): write, read, dial. */
export const py = {
  program: (...probes: string[]): string =>
    [
      'import os, socket',
      'def _say(what, result):',
      "    print('PROBE ' + what + ' => ' + result, flush=True)",
      'def _try(what, fn):',
      '    try:',
      "        _say(what, 'ok ' + repr(fn())[:400])",
      '    except Exception as e:',
      "        _say(what, 'fail ' + type(e).__name__)",
      ...probes,
      '',
    ].join('\n'),
  write: (path: string, data: string): string => `_try(${q(`write ${path}`)}, lambda: open(${q(path)}, 'a').write(${q(data)}))`,
  read: (path: string): string => `_try(${q(`read ${path}`)}, lambda: open(${q(path)}).read())`,
  dial: (host: string, port: number): string =>
    `_try(${q(`connect ${host}:${port}`)}, lambda: socket.create_connection((${q(host)}, ${port}), timeout=1.5).close())`,
};

/**
 * With whatever capabilities the command has: unmount the masks over `hidden` paths and read what they
 * hid, remount `/` read-write and write `target`. Mount calls are made ONLY in a mount namespace other than
 * the host's (`hostMountNs`, from /proc/self/ns/mnt of the test): run unconfined, the probe must never
 * remount the host's root. There it just reads and writes directly — the escape the case asserts against.
 */
export const unmask = (hostMountNs: string, hidden: string[], readAfter: string[], target: string): string => `
  const ns = fs.readlinkSync('/proc/self/ns/mnt');
  if (ns === ${q(hostMountNs)}) {
    say('mount namespace', 'the host one: no mount calls, plain access');
  } else {
    say('mount namespace', ns);
    for (const h of ${q(hidden)}) run('umount', ['-l', h]);
    run('mount', ['-o', 'remount,bind,rw', '/']);
    run('unshare', ['-rm', 'sh', '-c', ${q(`for h in ${hidden.join(' ')}; do umount -l "$h"; done; cat ${readAfter.join(' ')}`)}]);
  }
  for (const p of ${q(readAfter)}) read(p);
  write(${q(target)}, 'written after unmasking\\n', true);`;
