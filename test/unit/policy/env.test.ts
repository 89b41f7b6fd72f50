import { strict as assert } from 'node:assert';
import { scrubEnv } from '../../../src/core/policy/env';

describe('scrubEnv (env leakage red team)', () => {
  const source: Record<string, string> = {
    PATH: '/usr/bin:/bin',
    HOME: '/home/u',
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    TERM: 'xterm',
    ANTHROPIC_API_KEY: 'sk-ant-secret',
    ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
    OPENAI_API_KEY: 'sk-x',
    GITHUB_TOKEN: 'ghp_x',
    NPM_TOKEN: 'npm_x',
    AWS_SECRET_ACCESS_KEY: 'aws',
    AWS_ACCESS_KEY_ID: 'AKIA',
    DATABASE_PASSWORD: 'hunter2',
    MY_PASSWD: 'p',
    SESSION_COOKIE: 'c',
    NODE_OPTIONS: '--require ./evil.js',
    LD_PRELOAD: '/tmp/evil.so',
    VSCODE_IPC_HOOK: '/tmp/vscode.sock',
    ELECTRON_RUN_AS_NODE: '1',
  };
  const out = scrubEnv(source);

  for (const name of [
    'ANTHROPIC_API_KEY',
    'ANTHROPIC_BASE_URL',
    'OPENAI_API_KEY',
    'GITHUB_TOKEN',
    'NPM_TOKEN',
    'AWS_SECRET_ACCESS_KEY',
    'AWS_ACCESS_KEY_ID',
    'DATABASE_PASSWORD',
    'MY_PASSWD',
    'SESSION_COOKIE',
    'NODE_OPTIONS',
    'LD_PRELOAD',
    'VSCODE_IPC_HOOK',
    'ELECTRON_RUN_AS_NODE',
  ]) {
    it(`drops ${name}`, () => assert.equal(name in out, false));
  }
  it('keeps the basics a build needs', () => {
    assert.deepEqual(out, { PATH: '/usr/bin:/bin', HOME: '/home/u', LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', TERM: 'xterm' });
  });
  it('still drops a secret-looking name the user tried to allow', () => {
    const o = scrubEnv(source, { allow: ['GITHUB_TOKEN', 'ANTHROPIC_BASE_URL'] });
    assert.equal('GITHUB_TOKEN' in o, false);
    assert.equal(o.ANTHROPIC_BASE_URL, 'http://127.0.0.1:9');
  });
  it('removes empty and relative PATH entries (a workspace file named npm must not shadow npm)', () => {
    assert.equal(scrubEnv({ PATH: '/usr/bin::.:node_modules/.bin:/bin:' }).PATH, '/usr/bin:/bin');
  });
  it('drops values carrying newlines', () => {
    assert.equal('TERM' in scrubEnv({ TERM: 'x\nEVIL=1' }), false);
  });
});
