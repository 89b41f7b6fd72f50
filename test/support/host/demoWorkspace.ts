/**
 * The demo's workspace: a temporary copy of demo/ with the sample MCP server (examples/mcp-server, bundled
 * by the build into dist/sample-mcp-server.cjs) placed where demo/.vscode/mcp.json names it — inside the
 * workspace, the one place a confined stdio server can read. And the demo's reset: the copy's files put
 * back as they are in demo/, so the tour can be played again in the same session.
 */
import { copyFileSync, existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { repoRoot } from './hostPaths';
import { copyWorkspace, DEMO_WORKSPACE, type TempWorkspace } from './workspace';

/** The bundled sample MCP server, and where the demo's mcp.json expects it in the workspace. */
export const SAMPLE_MCP_BUNDLE = join(repoRoot, 'dist', 'sample-mcp-server.cjs');
const SAMPLE_MCP_IN_WORKSPACE = join('.vscode', 'sample-mcp-server.cjs');

/**
 * A fresh copy of demo/ with the sample MCP server in it (`sampleServer`: the build's bundle by default;
 * when there is none, the server's absence is said at mission start and the tour goes on without its card).
 */
export function copyDemoWorkspace(sampleServer = SAMPLE_MCP_BUNDLE): TempWorkspace {
  const copy = copyWorkspace(DEMO_WORKSPACE);
  if (existsSync(sampleServer)) copyFileSync(sampleServer, join(copy.path, SAMPLE_MCP_IN_WORKSPACE));
  return copy;
}

/** Every file of demo/, relative to it. */
function demoFiles(dir = DEMO_WORKSPACE): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? demoFiles(join(dir, e.name)) : [relative(DEMO_WORKSPACE, join(dir, e.name))],
  );
}

/**
 * Puts back every file of demo/ that differs in (or is missing from) the copy at `workspace`, and returns
 * them. What the copy has beyond demo/ (the sample server, the mission store) stays.
 */
export function resetDemoFiles(workspace: string): string[] {
  const restored: string[] = [];
  for (const rel of demoFiles()) {
    const original = readFileSync(join(DEMO_WORKSPACE, rel));
    const target = join(workspace, rel);
    if (existsSync(target) && readFileSync(target).equals(original)) continue;
    copyFileSync(join(DEMO_WORKSPACE, rel), target);
    restored.push(rel.split('\\').join('/'));
  }
  return restored;
}
