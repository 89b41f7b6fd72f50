import { err, type Err } from '../contracts/result';

/** Why the policy refuses a path or a command: a named rule (`path.traversal`, `command.pipe`) and a sentence for the model. */
export type PolicyDenial = { rule: string; reason: string };

export function deny(rule: string, reason: string): Err<PolicyDenial> {
  return err({ rule, reason });
}
