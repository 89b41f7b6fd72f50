/**
 * The plan's version history: append-only. Every version (initial plan, user edit, replan) records its
 * parent, why it exists, who made it and the diff from the parent. Versions are never overwritten or
 * removed; the mission runs the latest approved one.
 */
import type { Plan } from '../contracts/plan';
import type { PlanDiff } from '../contracts/traceEvents';
import { diffPlans } from './diff';

export type PlanAuthor = 'planner' | 'user' | 'replanner';

export interface PlanVersion {
  version: number;
  parentVersion: number | null;
  reason: string;
  author: PlanAuthor;
  plan: Plan;
  /** Diff from the parent version (null for the first). */
  diff: PlanDiff | null;
}

export class PlanHistory {
  readonly #versions: PlanVersion[] = [];

  /** Rebuilds a history from recorded versions (e.g. plan_version events), checking they chain. */
  static from(versions: readonly { plan: Plan; author: PlanAuthor }[]): PlanHistory {
    const history = new PlanHistory();
    for (const v of versions) history.append(v.plan, v.author);
    return history;
  }

  get versions(): readonly PlanVersion[] {
    return this.#versions;
  }

  get latest(): PlanVersion | undefined {
    return this.#versions[this.#versions.length - 1];
  }

  get nextVersion(): number {
    return (this.latest?.version ?? 0) + 1;
  }

  get(version: number): PlanVersion | undefined {
    return this.#versions.find((v) => v.version === version);
  }

  /**
   * Appends a plan as the next version. The plan must carry `version === nextVersion` and, after the
   * first, a `parentVersion` naming an existing version; throws otherwise (a programming error — callers
   * build the plan with `nextPlan`).
   */
  append(plan: Plan, author: PlanAuthor): PlanVersion {
    if (plan.version !== this.nextVersion) {
      throw new Error(`plan version ${plan.version} cannot follow version ${this.latest?.version ?? 'none'}`);
    }
    const parent = plan.parentVersion === null ? undefined : this.get(plan.parentVersion);
    if (this.#versions.length > 0 && !parent) {
      throw new Error(`plan version ${plan.version} names parent ${String(plan.parentVersion)}, which does not exist`);
    }
    const entry: PlanVersion = {
      version: plan.version,
      parentVersion: plan.parentVersion,
      reason: plan.reason,
      author,
      plan,
      diff: parent ? diffPlans(parent.plan, plan) : null,
    };
    this.#versions.push(entry);
    return entry;
  }

  /** The reasons so far, oldest first (what a replanner is told about the history). */
  summary(): { version: number; reason: string }[] {
    return this.#versions.map((v) => ({ version: v.version, reason: v.reason }));
  }
}

/** A copy of `plan` stamped as the next version after `parent`, with its reason. */
export function nextPlan(plan: Plan, parent: Plan, version: number, reason: string): Plan {
  return { ...plan, version, parentVersion: parent.version, reason };
}
