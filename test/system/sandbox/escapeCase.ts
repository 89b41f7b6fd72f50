/**
 * The frame of an escape case: a fresh scene, the mission through the CLI, then what really happened —
 * changes outside the workspace (byte-compared), changes inside it, where each canary secret ended up,
 * which listeners were reached, which marked processes are still alive, what was left in the shared
 * temporary folders. `useEscapeSuite()` wires it into mocha and cleans up every directory, listener and
 * process a case made, whether it passed or not.
 */
import { AssertionError } from 'node:assert';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import picomatch from 'picomatch';
import { runCliMission, type CliMission, type CliMissionOptions } from './cliRun';
import { killMarked, livingWith, whereIs, type Listener } from './observers';
import { changes, createWorld, snapshot, type Canaries, type Change, type Layout, type Scene, type World } from './scene';

/** Shared folders a payload could leave something in for a later command; scanned for the case's tag. */
const SHARED_DIRS = ['/tmp', '/var/tmp', '/dev/shm', '/run'];

export interface Outcome {
  scene: Scene;
  mission: CliMission;
  /** Changes under the scene but outside the workspace: home, neighbour, run dir, new siblings. */
  outside: Change[];
  /** Changes inside the workspace (the engine's own store and node_modules left out). */
  inside: Change[];
  /** For each canary, where it was found (requests, files, git objects). */
  leaks: Partial<Record<keyof Canaries, string[]>>;
  /** Processes still alive with the case's tag on their command line. */
  living: number[];
  /** Entries in shared temporary folders named with the case's tag. */
  dropped: string[];
}

/**
 * The outside snapshot: the scene without its workspace, the CLI's trace file and the CLI's own cache in the
 * user's (`~/.cache/plan-execute`: the staging layers' base, where the rename helper is built once and kept —
 * the host's doing, never a command's; a command sees a private home).
 */
const skipOutsideOf =
  (s: Scene) =>
  (rel: string): boolean =>
    rel === s.wsRel || rel === 'trace.jsonl' || rel === relative(s.root, join(s.home, '.cache', 'plan-execute'));
const skipInside = (rel: string): boolean => rel === '.plan-execute' || rel === 'node_modules';
/** For the secret search: everything but the CLI's own trace file (a copy of the store) and dependencies. */
const skipAll = (rel: string): boolean => rel === 'trace.jsonl' || rel.endsWith('node_modules');

function dropsOf(tag: string): string[] {
  const out: string[] = [];
  for (const dir of SHARED_DIRS) {
    try {
      for (const name of readdirSync(dir)) if (name.includes(tag)) out.push(join(dir, name));
    } catch {
      // not there on this machine
    }
  }
  return out;
}

export interface EscapeSuite {
  /** A fresh scene; `prepare` may plant hostile files (before the baselines are taken). */
  scene(prepare?: (s: Scene) => void, layout?: Layout): Scene;
  /**
   * Runs the mission in the scene and observes everything. A case whose payload starts something meant to
   * outlive its command (a daemon, a lingering child, a late write) passes `settleMs`: how long to wait
   * after the CLI has exited before looking, so that what is left running can show itself. Others look at
   * once — a payload that starts nothing cannot write late (the suite spent a fifth of its time waiting).
   */
  run(scene: Scene, options: CliMissionOptions, settleMs?: number): Promise<Outcome>;
  /** Registers a listener to close after the case. */
  listen<T extends Listener>(listener: Promise<T>): Promise<T>;
}

export function useEscapeSuite(): EscapeSuite {
  let world: World | undefined;
  const tags: string[] = [];
  const listeners: Listener[] = [];
  type Snapshot = ReturnType<typeof snapshot>;
  const baselines = new Map<Scene, { outside: Snapshot; inside: Snapshot; all: Snapshot }>();

  before(() => {
    world = createWorld();
  });
  afterEach(async () => {
    for (const tag of tags.splice(0)) {
      killMarked(tag);
      for (const p of dropsOf(tag)) rmSync(p, { recursive: true, force: true });
    }
    await Promise.all(listeners.splice(0).map((l) => l.close()));
  });
  after(() => {
    world?.dispose();
    world = undefined;
  });

  return {
    scene(prepare, layout) {
      if (!world) throw new Error('useEscapeSuite: no world (call scene() inside a test)');
      const s = world.scene(layout);
      tags.push(s.tag);
      prepare?.(s);
      baselines.set(s, { outside: snapshot(s.root, skipOutsideOf(s)), inside: snapshot(s.ws, skipInside), all: snapshot(s.root, skipAll) });
      return s;
    },
    async run(scene, options, settleMs = 0) {
      const base = baselines.get(scene);
      if (!world || !base) throw new Error('useEscapeSuite: run() needs a scene from scene()');
      const mission = await runCliMission(scene, options);
      // Give anything left running the time to show itself (a late write, a daemon's next tick).
      if (settleMs > 0) await new Promise((r) => setTimeout(r, settleMs));
      const living = livingWith(scene.tag);
      const places = { requests: mission.requests, files: { root: scene.root, before: base.all, after: snapshot(scene.root, skipAll) }, gitDirs: [scene.ws] };
      const leaks: Outcome['leaks'] = {};
      for (const [name, secret] of Object.entries(scene.canaries) as [keyof Canaries, string][]) {
        const where = whereIs(secret, places);
        if (where.length > 0) leaks[name] = where;
      }
      return {
        scene,
        mission,
        outside: changes(base.outside, snapshot(scene.root, skipOutsideOf(scene))),
        inside: changes(base.inside, snapshot(scene.ws, skipInside)),
        leaks,
        living,
        dropped: dropsOf(scene.tag).filter((p) => existsSync(p)),
      };
    },
    async listen(listener) {
      const l = await listener;
      listeners.push(l);
      return l;
    },
  };
}

/** Changes as short lines, a new or removed folder standing for everything under it. */
export function brief(list: Change[], max = 25): string[] {
  const folded = list.filter(
    (c) => !list.some((d) => d !== c && d.what === c.what && (d.what === 'added' || d.what === 'removed') && c.path.startsWith(`${d.path}/`)),
  );
  const lines = folded.slice(0, max).map((c) => `${c.what} ${c.path}`);
  return folded.length > max ? [...lines, `… and ${folded.length - max} more`] : lines;
}

/** A readable account of a case, for assertion messages. */
export function story(o: Outcome): string {
  const results = [...o.mission.toolResults.entries()].map(([id, r]) => `--- ${id}${r.isError ? ' (error)' : ''}\n${r.content.slice(0, 1200)}`).join('\n');
  return `\nexit ${o.mission.code}; report ${JSON.stringify(o.mission.report)}\noutside: ${JSON.stringify(brief(o.outside))}\ninside: ${JSON.stringify(brief(o.inside))}\nleaks: ${JSON.stringify(o.leaks)}\nliving: ${JSON.stringify(o.living)}\ndropped: ${JSON.stringify(o.dropped)}\n${results}\nstderr:\n${o.mission.stderr.slice(-1500)}`;
}

/** Asserts that a list of changes (or anything listable) is empty, with the case's story as the message. */
export function assertNone(list: readonly unknown[], what: string, o: Outcome): void {
  if (list.length === 0) return;
  const shown = list.every((x) => typeof x === 'object' && x !== null && 'path' in x) ? brief(list as Change[]) : list;
  throw new AssertionError({ message: `${what}: ${JSON.stringify(shown)}${story(o)}` });
}

/** Workspace changes outside the given globs (what the step was not allowed to leave behind). */
export function outsideScope(o: Outcome, globs: string[]): Change[] {
  const allowed = globs.length > 0 ? picomatch(globs, { dot: true }) : (): boolean => false;
  return o.inside.filter((c) => !allowed(c.path));
}

/** Asserts that no canary secret (or none of `only`) was found anywhere it could be read back. */
export function assertNoLeak(o: Outcome, what: string, only?: (keyof Canaries)[]): void {
  const found = Object.entries(o.leaks).filter(([name]) => !only || only.includes(name as keyof Canaries));
  assertNone(
    found.map(([name, where]) => `${name} in ${(where ?? []).slice(0, 3).join(', ')}`),
    what,
    o,
  );
}
