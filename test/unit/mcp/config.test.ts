import { strict as assert } from 'node:assert';
import { mergeConfigs, parseJsonc, serversIn, serversNotInFile, type Variables } from '../../../src/node/mcp/config';

const vars: Variables = { workspaceFolder: '/ws', userHome: '/home/u', env: { TOKEN: 'full-env-token', PATH: '/bin' }, scrubbedEnv: { PATH: '/bin' } };
const repo = { label: '.vscode/mcp.json', trusted: false };
const user = { label: '/home/u/servers.json', trusted: true };

describe('MCP server configuration (.vscode/mcp.json, .mcp.json, --mcp-config)', () => {
  it("reads VS Code's shape with comments and trailing commas, stdio and http entries", () => {
    const text = `{
      // the team's servers
      "servers": {
        "db": { "command": "node", "args": ["\${workspaceFolder}/db.js", 3], "env": { "MODE": "ro", "N": 2 }, },
        /* a remote one */
        "docs": { "type": "http", "url": "https://docs.example/mcp", "headers": { "X-Team": "a" } },
      },
    }`;
    const read = serversIn(text, repo, vars);
    assert.deepEqual(read.notes, []);
    assert.deepEqual(read.servers, [
      { name: 'db', source: '.vscode/mcp.json', transport: 'stdio', command: 'node', args: ['/ws/db.js', '3'], env: { MODE: 'ro', N: '2' } },
      { name: 'docs', source: '.vscode/mcp.json', transport: 'http', url: 'https://docs.example/mcp', headers: { 'X-Team': 'a' } },
    ]);
    assert.deepEqual(parseJsonc('{"a": "// not a comment", "b": [1,]}'), { a: '// not a comment', b: [1] });
  });

  it("reads .mcp.json's mcpServers; a repository file sees only the scrubbed environment, the user's own file all of it", () => {
    const text = JSON.stringify({ mcpServers: { t: { type: 'http', url: 'http://127.0.0.1:1/mcp', headers: { Authorization: 'Bearer ${env:TOKEN}' } } } });
    const fromRepo = serversIn(text, { label: '.mcp.json', trusted: false }, vars).servers[0]!;
    assert.equal(fromRepo.transport === 'http' && fromRepo.headers.Authorization, 'Bearer ');
    assert.match(fromRepo.needs ?? '', /\$\{env:TOKEN\} \(a file in the repository sees only the scrubbed environment\)/);
    const fromUser = serversIn(text, user, vars).servers[0]!;
    assert.equal(fromUser.transport === 'http' && fromUser.headers.Authorization, 'Bearer full-env-token');
    assert.equal(fromUser.needs, undefined);
  });

  it('says what it cannot use: an input prompt, the SSE transport, a bad entry, a bad name, a file without servers', () => {
    const text = JSON.stringify({
      servers: {
        asks: { command: 'x', env: { KEY: '${input:api-key}' } },
        old: { type: 'sse', url: 'http://x/sse' },
        broken: { args: ['no command'] },
        'bad name!': { command: 'x' },
      },
    });
    const read = serversIn(text, repo, vars);
    assert.deepEqual(
      read.servers.map((s) => s.name),
      ['asks'],
    );
    assert.match(read.servers[0]!.needs ?? '', /input:api-key.*a value VS Code prompts for/);
    assert.equal(read.notes.length, 3);
    assert.match(read.notes.join('\n'), /"old" left out: the legacy SSE transport is not supported/);
    assert.match(read.notes.join('\n'), /"broken" left out/);
    assert.match(serversIn('{"other": 1}', repo, vars).notes[0]!, /neither "servers" \(VS Code's shape\) nor "mcpServers"/);
    assert.match(serversIn('{not json', repo, vars).notes[0]!, /is not valid JSON/);
  });

  it('lets a later source replace a server of the same name, and says so', () => {
    const a = serversIn(JSON.stringify({ servers: { db: { command: 'a' } } }), repo, vars);
    const b = serversIn(JSON.stringify({ mcpServers: { db: { command: 'b' } } }), user, vars);
    const merged = mergeConfigs([a, b]);
    assert.deepEqual(
      merged.servers.map((s) => s.transport === 'stdio' && s.command),
      ['b'],
    );
    assert.deepEqual(merged.notes, ['server "db" from /home/u/servers.json replaces the one from .vscode/mcp.json']);
  });

  it("labels a server by the file it came from: VS Code's workspace settings repeat .vscode/mcp.json, which is read itself", () => {
    const file = `// comments allowed\n${JSON.stringify({ servers: { notes: { command: 'node', args: ['s.cjs'] }, other: { command: 'x' } } })}`;
    // What VS Code's settings hold for the workspace: mcp.json's servers (same entries) and one from settings.json.
    const settings = { notes: { args: ['s.cjs'], command: 'node' }, other: { command: 'changed' }, own: { command: 'y' } };
    assert.deepEqual(Object.keys(serversNotInFile(settings, file)), ['other', 'own'], "only entries the file does not hold keep the settings' label");
    assert.deepEqual(Object.keys(serversNotInFile(settings, undefined)), ['notes', 'other', 'own']);
    assert.deepEqual(Object.keys(serversNotInFile(settings, '{ not json')), ['notes', 'other', 'own']);
    const read = mergeConfigs([
      serversIn(file, repo, vars),
      serversIn(JSON.stringify({ servers: serversNotInFile(settings, file) }), { label: '.vscode/settings.json (mcp.servers)', trusted: false }, vars),
    ]);
    assert.deepEqual(
      read.servers.map((s) => `${s.name}: ${s.source}`),
      ['notes: .vscode/mcp.json', 'other: .vscode/settings.json (mcp.servers)', 'own: .vscode/settings.json (mcp.servers)'],
    );
  });
});
