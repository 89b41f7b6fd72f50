/**
 * A git commit or tag that must be signed cannot be signed inside the sandbox: the user's private key and
 * their agent (ssh-agent, gpg-agent) stay out of reach, because either would let every command of the step
 * sign anything as the user — a signature is the user's word, and a command's output reaches the model.
 * git then fails with its own words ("Couldn't load public key", "gpg failed to sign the data"), which name
 * neither the cause nor a way out; this says both, beside the command's own output. Pure.
 */

/** git's own words for a signature it could not make (SSH, OpenPGP and X.509 signing; commits and tags). */
const SIGNING_FAILED =
  /gpg failed to sign the data|Couldn't load public key|No private key found for|Couldn't sign message|unable to sign the tag|failed to sign commit/i;

/** The note for a failed command whose output shows git could not sign, else undefined. */
export function signingHint(exitCode: number | null, output: string): string | undefined {
  if (exitCode === 0 || !SIGNING_FAILED.test(output)) return undefined;
  return (
    '[sandbox: git could not sign — your git config signs commits or tags (commit.gpgsign / tag.gpgsign), and the sandbox gives ' +
    'commands neither your private key nor your ssh-agent or gpg-agent: either would let every command of this step sign anything as ' +
    'you. Nothing was committed unsigned. To let a mission commit: turn signing off for this repository while it runs ' +
    '(`git config commit.gpgsign false`) and sign its commits afterwards yourself (`git rebase --exec "git commit --amend --no-edit -S" <base>`), ' +
    'or make the commit yourself outside the mission]'
  );
}
