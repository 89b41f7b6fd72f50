import assert from 'node:assert/strict';
import { signingHint } from '../../../src/core/tools/signingHint';

describe('a signature git could not make, said with its cause and way out (src/core/tools/signingHint.ts)', () => {
  const cases: [string, number | null, string, boolean][] = [
    [
      'SSH key out of reach',
      128,
      "error: Couldn't load public key /home/u/.ssh/id_ed25519.pub: No such file or directory?\n\nfatal: failed to write commit object\n",
      true,
    ],
    ['SSH agent without the key', 128, 'error: No private key found for "ssh-ed25519 AAAA…"\nfatal: failed to write commit object\n', true],
    ['OpenPGP', 128, 'error: gpg failed to sign the data\nfatal: failed to write commit object\n', true],
    ['a signed tag', 128, 'error: gpg failed to sign the data\nerror: unable to sign the tag\n', true],
    ['a commit that worked', 0, '[main 1a2b3c4] bump\n 1 file changed\n', false],
    ['a failure of something else', 1, 'fatal: not a git repository\n', false],
    ['a test that merely prints the words and passes', 0, 'gpg failed to sign the data (expected in this test)\n', false],
  ];
  for (const [name, exit, output, hinted] of cases) {
    it(`${hinted ? 'explains' : 'says nothing about'} ${name}`, () => {
      const hint = signingHint(exit, output);
      if (!hinted) return assert.equal(hint, undefined);
      assert.match(hint ?? '', /^\[sandbox: git could not sign/);
      assert.match(hint ?? '', /git config commit\.gpgsign false/);
      assert.match(hint ?? '', /Nothing was committed unsigned/);
    });
  }
});
