/**
 * A sample MCP server (stdio, on the official TypeScript SDK) to try MCP grants with: `npm run build`
 * bundles it, SDK included, into one file, `dist/sample-mcp-server.cjs`, that runs with plain `node` — so
 * it needs nothing outside its own file and runs inside a step's OS sandbox, which shows it the workspace
 * read-only and hides the home folder (docs/user-setup.md, "A sample MCP server").
 *
 * Its tools, both read-only:
 *   find_todos {folder?}   the TODO / FIXME comments in the workspace's text files (path:line: text)
 *   sandbox_report {}      what this process can see and do where it runs: its folder, whether it can
 *                          write there, the home folder, a private /tmp, the environment's names
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';

const TOOLS = [
  {
    name: 'find_todos',
    description: 'List the TODO and FIXME comments in the workspace (path:line: text), optionally under one folder.',
    annotations: { readOnlyHint: true },
    inputSchema: { type: 'object', properties: { folder: { type: 'string', description: 'a folder of the workspace (default: all of it)' } } },
  },
  {
    name: 'sandbox_report',
    description: 'Report what this server process can see and do where it runs (its folder, writes, the home folder, /tmp, environment names).',
    annotations: { readOnlyHint: true },
    inputSchema: { type: 'object', properties: {} },
  },
];

/** Folders never searched, files never read (too big to be source), and how many findings at most. */
const SKIP = new Set(['node_modules', '.git', '.plan-execute', 'dist', 'out']);
const MAX_FILE_BYTES = 256 * 1024;
const MAX_FINDINGS = 200;
const TODO = /\b(TODO|FIXME)\b[:\s]*(.*)$/;

/** The server's working folder: the workspace, where the product starts every stdio server. */
const root = process.cwd();

function findTodos(folder: string | undefined): CallToolResult {
  const start = resolve(root, folder ?? '.');
  if (start !== root && !start.startsWith(root + sep)) return failure(`"${folder}" is outside the workspace`);
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (found.length >= MAX_FINDINGS) return;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIP.has(entry.name)) walk(path);
        continue;
      }
      if (!entry.isFile() || statSync(path).size > MAX_FILE_BYTES) continue;
      const text = readFileSync(path, 'utf8');
      if (text.includes('\u0000')) continue; // not text
      text.split('\n').forEach((line, i) => {
        const m = TODO.exec(line);
        if (m && found.length < MAX_FINDINGS) found.push(`${relative(root, path)}:${i + 1}: ${m[1]!} ${m[2]!.trim()}`);
      });
    }
  };
  if (!existsSync(start)) return failure(`there is no folder "${folder}" in the workspace`);
  walk(start);
  const more = found.length >= MAX_FINDINGS ? `\n(the first ${MAX_FINDINGS} only)` : '';
  return text(found.length > 0 ? `${found.join('\n')}${more}` : 'No TODO or FIXME comments.');
}

/** The error code of a failed file operation (EACCES, EROFS, ENOENT…), for the report. */
const codeOf = (error: unknown): string => (error as NodeJS.ErrnoException).code ?? 'failed';

/** Whether a file can be created (and removed again) in `dir`: a failure of either means it cannot. */
function canWrite(dir: string): boolean {
  const probe = join(dir, `.sample-mcp-probe-${process.pid}`);
  try {
    writeFileSync(probe, '');
    unlinkSync(probe);
    return true;
  } catch {
    return false;
  }
}

function sandboxReport(): CallToolResult {
  let home: string;
  try {
    const entries = readdirSync(homedir());
    home = `${homedir()}: ${entries.length} entries visible${entries.length > 0 ? ` (${entries.slice(0, 8).join(', ')})` : ''}`;
  } catch (error) {
    home = `${homedir()}: not visible (${codeOf(error)})`;
  }
  let tmp: string;
  try {
    const dir = mkdtempSync(join(tmpdir(), 'sample-mcp-'));
    rmSync(dir, { recursive: true });
    tmp = `${tmpdir()}: writable`;
  } catch (error) {
    tmp = `${tmpdir()}: not writable (${codeOf(error)})`;
  }
  const lines = [
    `working folder (the workspace): ${root}`,
    `workspace: ${readdirSync(root).length} entries readable, ${canWrite(root) ? 'WRITABLE' : 'read-only'}`,
    `home folder ${home}`,
    `temporary folder ${tmp}`,
    `environment: ${Object.keys(process.env).sort().join(', ')}`,
  ];
  return text(lines.join('\n'));
}

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });
const failure = (message: string): CallToolResult => ({ isError: true, content: [{ type: 'text', text: message }] });

const server = new Server({ name: 'plan-execute-sample', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS }));
server.setRequestHandler(CallToolRequestSchema, (request) => {
  const args = request.params.arguments ?? {};
  try {
    if (request.params.name === 'find_todos') return findTodos(typeof args.folder === 'string' ? args.folder : undefined);
    if (request.params.name === 'sandbox_report') return sandboxReport();
    return failure(`there is no tool "${request.params.name}"`);
  } catch (error) {
    return failure(error instanceof Error ? error.message : String(error));
  }
});
void server.connect(new StdioServerTransport());
