/**
 * How one of a step's processes is confined — a command of the `bash` tool, a project hook, a stdio MCP
 * server — as ONE finished value, decided here from the step's policy, the user's `sandbox` setting and the
 * host's facts (pure: the facts are asked by the caller, src/core/tools/stepProcess.ts `confinementOfStep`).
 * The value travels, unchanged, along the whole path of a process:
 *
 *   policy (authority)  ─► CommandConfinement (here)  ─► approval gate (the request is read off the value)
 *     ─► spec, after the approval, from the workspace as it then is (stepProcess.ts `runConfined`: the only
 *        place a process's spec is built, and it launches at once)  ─► Terminal port ─► platform launcher
 *        (src/node/sandbox/confinedRun.ts: bubblewrap or Seatbelt behind one interface).
 *
 * Decided, in order (the first that applies wins):
 *   1. mode     — `off`: sandbox_off; a sandbox here: sandboxed; none and `prefer`: unsandboxed (the user
 *                 must approve that very command); none and `required`: refused, saying what to install;
 *   2. writes   — sandboxed by bubblewrap where the terminal stages and the step has a layer that the
 *                 machine can mount: staged (the process writes the layer, the judge decides what reaches
 *                 the workspace); anywhere else: direct, and why (said on the card and in the trace);
 *   3. region   — staged: the whole workspace inside the layer; direct: the step's write scope (none for the
 *                 verifier) — and what the workspace listing for the spec need not enter;
 *   4. git      — whether the step's commands may write the repository (an existing one: the listing for
 *                 the spec confirms it);
 *   5. network  — the step's grant; granted, whether it is the host's (its loopback services reachable) or
 *                 the sandbox's own (slirp4netns, where the runner has it).
 * What stays read-only or hidden inside the region is not known here: the spec decides it per entry, from a
 * listing taken after the approval (sandboxSpec.ts).
 */
import type { McpConfinement } from '../contracts/mcp';
import type { Confinement, HostFacts, SandboxMode, SandboxSupport } from '../contracts/sandbox';
import type { StagingSupport } from '../contracts/staging';
import type { StagingLayers } from '../ports';
import { err, ok, type Result } from '../contracts/result';
import type { Policy } from './policy';
import { commandWriteScope, gitWritableFor, scanPrune, STAGED_SCOPE } from './sandboxSpec';
import type { WriteRoot } from './writeScope';

/** Why no process of the step may run: the sandbox is required and there is none (what to install is the remedy). */
export interface Refusal {
  rule: 'sandbox.unavailable';
  /** The sentence for the user and the trace. */
  reason: string;
  /** What is missing, as the machine's sandbox detection says it. */
  missing: string;
  remedy: string;
}

/** Where a process's writes go: the step attempt's staging layer, or the workspace itself (and why). */
type Writes = { kind: 'staged'; layers: StagingLayers; layer: string } | { kind: 'direct'; why: string };

export interface CommandConfinement {
  mode: Confinement;
  /** Why it runs without the sandbox (absent: sandboxed). */
  reason?: string;
  /** The runner that confines it, as the trace names it; `none` when unconfined. */
  sandbox: 'bubblewrap' | 'seatbelt' | 'none';
  writes: Writes;
  /** What the process may write before the spec judges each entry, and what the listing for the spec skips. */
  region: { scope: readonly WriteRoot[]; prune: (rel: string) => boolean };
  /** The step's commands may write the repository (`git commit`, …), if the workspace holds one. */
  gitWritable: boolean;
  /** `hostLoopback`, with the network granted: the host's network, this machine's loopback services included. */
  network: { granted: false } | { granted: true; hostLoopback: boolean };
  /** The machine's facts the spec is built from (read once, with the rest). */
  host: HostFacts;
}

/** The terminal's staging, as the caller found it: none, or the step's layer and whether this machine can mount it. */
export type StagingFacts = { kind: 'none' } | { kind: 'layer'; layers: StagingLayers; layer: string; support: StagingSupport };

export interface ConfinementFacts {
  setting: SandboxMode;
  support: SandboxSupport;
  staging: StagingFacts;
  host: HostFacts;
}

/** Rule 1 alone: the mode, or the refusal. What the policy checks before anything is asked (commandRun.ts). */
export function confinementMode(setting: SandboxMode, support: SandboxSupport): Result<{ mode: Confinement; reason?: string }, Refusal> {
  if (setting === 'off') return ok({ mode: 'sandbox_off', reason: 'the sandbox is turned off (planExecute.sandbox = off)' });
  if (support.available) return ok({ mode: 'sandboxed' });
  if (setting === 'prefer') return ok({ mode: 'unsandboxed', reason: `no OS sandbox: ${support.reason}` });
  return err({
    rule: 'sandbox.unavailable',
    reason: `commands must run in the OS sandbox, and there is none here: ${support.reason}. ${support.remedy}`,
    missing: support.reason,
    remedy: support.remedy,
  });
}

/**
 * Whether staging could apply, so that the caller asks the machine whether it can mount a layer (a probe
 * with a cost) only then: sandboxed, by bubblewrap.
 */
export function stagingMayApply(setting: SandboxMode, support: SandboxSupport): boolean {
  return setting !== 'off' && support.available && support.kind === 'bubblewrap';
}

/** Rule 2: staged, or direct with why. */
function writesOf(mode: Confinement, support: SandboxSupport, staging: StagingFacts): Writes {
  if (mode !== 'sandboxed' || !support.available) return { kind: 'direct', why: 'commands run outside the sandbox, so nothing stages their writes' };
  if (support.kind !== 'bubblewrap') return { kind: 'direct', why: `${support.kind} cannot stage writes yet` };
  if (staging.kind === 'none') return { kind: 'direct', why: 'this terminal does not stage writes' };
  if (!staging.support.available) return { kind: 'direct', why: staging.support.reason };
  return { kind: 'staged', layers: staging.layers, layer: staging.layer };
}

/** The one confinement of a step's processes (rules 1–5 of the header), or why none may run. */
export function confinementFor(policy: Policy, facts: ConfinementFacts): Result<CommandConfinement, Refusal> {
  const { support } = facts;
  const decided = confinementMode(facts.setting, support);
  if (!decided.ok) return decided;
  const { mode, reason } = decided.value;
  const writes = writesOf(mode, support, facts.staging);
  const staged = writes.kind === 'staged';
  const scope = staged ? STAGED_SCOPE : commandWriteScope(policy);
  const granted = policy.authority.network;
  // A granted network is the sandbox's own only where the runner can give it one (slirp4netns on Linux).
  const ownNetwork = mode === 'sandboxed' && support.available && support.ownNetwork === true;
  return ok({
    mode,
    ...(reason !== undefined ? { reason } : {}),
    sandbox: mode === 'sandboxed' && support.available ? support.kind : 'none',
    writes,
    region: { scope, prune: scanPrune(policy, scope, staged) },
    gitWritable: gitWritableFor(policy),
    network: granted ? { granted: true, hostLoopback: !ownNetwork } : { granted: false },
    host: facts.host,
  });
}

/**
 * How a process no one approves runs — a stdio MCP server, a project hook at a mission's start: like a
 * command, except that it is never unconfined where a sandbox is only preferred (`prefer` reads as
 * `required`: there is no approval to carry the user's consent); `off` runs it unconfined, as the user asked.
 */
export function unattendedConfinementFor(setting: SandboxMode, support: SandboxSupport): Result<Extract<McpConfinement, 'sandboxed' | 'unsandboxed'>, Refusal> {
  const decided = confinementMode(setting === 'prefer' ? 'required' : setting, support);
  if (!decided.ok) return decided;
  return ok(decided.value.mode === 'sandboxed' ? 'sandboxed' : 'unsandboxed');
}

/** A confinement whose process writes the step attempt's staging layer. */
export type StagedConfinement = CommandConfinement & { writes: Extract<Writes, { kind: 'staged' }> };

export function isStaged(c: CommandConfinement): c is StagedConfinement {
  return c.writes.kind === 'staged';
}
