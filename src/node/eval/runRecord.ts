/**
 * What a run records about where and with what it ran: the product (name, version, git commit when run
 * from a checkout), the host, the sandbox, the provider's endpoint and the models each role resolved to —
 * so a figure in a report can always be traced to what produced it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { arch, cpus } from 'node:os';
import { dirname, join } from 'node:path';
import type { SandboxSupport } from '../../core/contracts/sandbox';
import { modelFor, resolveModelSettings, type DeepPartialSettings } from '../../core/model/modelSettings';
import { formatModelRef } from '../../core/model/providers';
import type { CliModels } from '../cliArgs';
import type { Models, Part } from './results';

/** The project's root: the first folder above this file whose package.json is plan-execute's. */
export function productRoot(from: string = __dirname): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'plan-execute') return dir;
      } catch {
        // SyntaxError: a package.json that is not JSON is not ours; keep looking
      }
    }
    if (dirname(dir) === dir) return undefined;
  }
}

export function productInfo(): Part['product'] {
  const root = productRoot();
  if (!root) return { name: 'plan-execute', version: 'unknown', commit: null };
  const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string }).version ?? 'unknown';
  let commit: string | null = null;
  try {
    commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 }).trim() || null;
  } catch {
    // git exits non-zero or is absent: not a git checkout (a packaged install), the version says enough
  }
  return { name: 'plan-execute', version, commit };
}

export function hostInfo(support: SandboxSupport): Part['host'] {
  return {
    platform: process.platform,
    arch: arch(),
    node: process.version,
    cpus: cpus().length,
    sandbox: support.available ? `${support.kind} (${support.detail})` : `none (${support.reason})`,
  };
}

/** The model each role (and each executor tier) resolves to, as provider:model. */
export function resolvedModels(settings: DeepPartialSettings): Models {
  const s = resolveModelSettings(settings);
  const ref = (role: 'planner' | 'replanner' | 'verifier' | 'executor', tier?: 'light' | 'standard' | 'heavy'): string => {
    const m = modelFor(s, role, tier);
    return formatModelRef({ provider: m.provider, model: m.model });
  };
  return {
    planner: ref('planner'),
    replanner: ref('replanner'),
    verifier: ref('verifier'),
    executor: { light: ref('executor', 'light'), standard: ref('executor', 'standard'), heavy: ref('executor', 'heavy') },
  };
}

/** The endpoint the flags and environment point the provider at, when it is not the public API. */
export function endpointOf(flags: CliModels, env: Record<string, string | undefined>): string | null {
  const provider = flags.provider ?? 'anthropic';
  return flags.baseUrl ?? (provider === 'anthropic' ? env.ANTHROPIC_BASE_URL : env.OPENAI_BASE_URL) ?? null;
}
