/**
 * One GitHub scene for `plan-execute github` system tests: a bare repository as `origin`, a clone of it as
 * GITHUB_WORKSPACE (with the token persisted in .git/config, as actions/checkout leaves it by default), a
 * fake home, the fake GitHub REST API (../../support/github/fakeGitHub.ts), canary tokens in the CLI's
 * environment (GITHUB_TOKEN, ACTIONS_RUNTIME_TOKEN, ACTIONS_ID_TOKEN_REQUEST_TOKEN, the model key), and a
 * runner for the real CLI with a scripted model that records every request.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { cliPath, spawnCli, type CliExit } from '../../support/cliBinary';
import { startFakeGitHub, type FakeGitHub } from '../../support/github/fakeGitHub';
import { issueCommentCreatedPayload, issuesLabeledPayload, type FakeIssue, type FakeUser, type Role } from '../../support/github/shapes';
import { startMessagesServer } from '../../support/messages-server/server';
import type { RecordedRequest, ScenarioInput } from '../../support/messages-server/scenario';
import { toolResultsOf } from '../../support/messages-server/toolResults';

const REPO = resolve(__dirname, '../../..');
const canary = (label: string): string => `${label}_${randomBytes(12).toString('hex')}`;

const OWNER = 'acme';
const NAME = 'widgets';
export const WRITER: FakeUser = { login: 'alice', id: 501 };
export const MAINTAINER: FakeUser = { login: 'mona', id: 502 };
export const TRIAGER: FakeUser = { login: 'trish', id: 503 };
export const READER: FakeUser = { login: 'randy', id: 504 };
export const BOT: FakeUser = { login: 'github-actions[bot]', id: 41898282, type: 'Bot' };
const ROLES: Record<string, Role> = { alice: 'write', mona: 'maintain', trish: 'triage', randy: 'read', owner: 'admin' };

interface Tokens {
  github: string;
  runtime: string;
  idRequest: string;
  modelKey: string;
}

export interface GitHubScene {
  root: string;
  origin: string;
  ws: string;
  home: string;
  temp: string;
  tokens: Tokens;
  github: FakeGitHub;
  issue: FakeIssue;
  close(): Promise<void>;
}

export const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=Fixture', '-c', 'user.email=fixture@example.invalid', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: cwd, GIT_CONFIG_NOSYSTEM: '1' },
  }).trim();

function put(root: string, rel: string, content: string): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), content);
}

export async function githubScene(issue: Partial<FakeIssue> = {}): Promise<GitHubScene> {
  const base = join(REPO, 'test-results', 'github');
  mkdirSync(base, { recursive: true });
  const root = mkdtempSync(join(base, 'case-'));
  const seed = join(root, 'seed');
  const origin = join(root, 'origin.git');
  const ws = join(root, 'work', NAME);
  const home = join(root, 'home');
  const temp = join(root, 'runner-temp');
  for (const d of [seed, home, temp, dirname(ws)]) mkdirSync(d, { recursive: true });
  put(seed, 'package.json', '{ "name": "widgets", "version": "1.0.0", "scripts": { "test": "node test/run.js" } }\n');
  put(seed, 'src/widgets.js', 'exports.count = () => 1;\n');
  put(seed, 'test/run.js', "require('../src/widgets.js');\nconsole.log('ok');\n");
  put(seed, 'README.md', '# widgets\n');
  git(seed, 'init', '-q');
  git(seed, 'add', '-A');
  git(seed, 'commit', '-qm', 'initial');
  git(root, 'clone', '-q', '--bare', seed, origin);
  git(dirname(ws), 'clone', '-q', origin, ws);
  const tokens: Tokens = { github: canary('ghs'), runtime: canary('RUNTIME'), idRequest: canary('IDREQ'), modelKey: canary('sk-ant') };
  // What actions/checkout leaves behind unless persist-credentials is false: the token, readable by any
  // process that can read .git/config.
  git(
    ws,
    'config',
    '--local',
    'http.https://github.example.invalid/.extraheader',
    `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${tokens.github}`).toString('base64')}`,
  );
  const fullIssue: FakeIssue = { number: 7, title: 'Add a greeting module', body: 'Please add src/greet.js exporting greet(name).', user: WRITER, ...issue };
  const github = await startFakeGitHub({
    owner: OWNER,
    repo: NAME,
    defaultBranch: 'main',
    token: tokens.github,
    originDir: origin,
    collaborators: ROLES,
    issues: [fullIssue],
  });
  return {
    root,
    origin,
    ws,
    home,
    temp,
    tokens,
    github,
    issue: fullIssue,
    close: async () => {
      await github.close();
      if (!process.env.PE_GITHUB_KEEP) rmSync(root, { recursive: true, force: true });
    },
  };
}

export type GitHubEvent = { name: 'issues' | 'issue_comment'; payload: Record<string, unknown> };

export const labeled = (s: GitHubScene, sender: FakeUser, label = 'plan-execute'): GitHubEvent => ({
  name: 'issues',
  payload: issuesLabeledPayload({
    issue: s.issue,
    label,
    sender,
    repo: { owner: OWNER, repo: NAME, defaultBranch: 'main' },
    api: s.github.url,
    server: s.github.serverUrl,
  }),
});

/** A person's comment, added to the issue (as GitHub would before the event fires) and its event. */
export function commented(s: GitHubScene, user: FakeUser, body: string): GitHubEvent {
  const comment = s.github.addComment(s.issue.number, user, body);
  return {
    name: 'issue_comment',
    payload: issueCommentCreatedPayload({
      issue: s.issue,
      comment,
      repo: { owner: OWNER, repo: NAME, defaultBranch: 'main' },
      api: s.github.url,
      server: s.github.serverUrl,
    }),
  };
}

export interface GitHubRunResult extends CliExit {
  requests: RecordedRequest[];
  toolResults: Map<string, { content: string; isError: boolean }>;
  trace: string;
  /** The model requests as one text (bodies only), to search for what must never reach a model. */
  modelText: string;
}

let runs = 0;

/** `node dist/cli.js github` for one event, with the scripted model playing `scenario`. */
export async function runGitHub(s: GitHubScene, event: GitHubEvent, scenario: ScenarioInput, args: string[] = []): Promise<GitHubRunResult> {
  const model = await startMessagesServer({ scenario });
  try {
    const n = ++runs;
    const eventPath = join(s.temp, `event-${n}.json`);
    writeFileSync(eventPath, JSON.stringify(event.payload));
    const trace = join(s.temp, `trace-${n}.jsonl`);
    const output = join(s.temp, `output-${n}`);
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: s.home,
      LANG: 'C.UTF-8',
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_EVENT_NAME: event.name,
      GITHUB_EVENT_PATH: eventPath,
      GITHUB_REPOSITORY: `${OWNER}/${NAME}`,
      GITHUB_API_URL: s.github.url,
      GITHUB_SERVER_URL: s.github.serverUrl,
      GITHUB_TOKEN: s.tokens.github,
      GITHUB_WORKSPACE: s.ws,
      GITHUB_RUN_ID: `4242${n}`,
      GITHUB_OUTPUT: output,
      RUNNER_TEMP: s.temp,
      ACTIONS_RUNTIME_TOKEN: s.tokens.runtime,
      ACTIONS_ID_TOKEN_REQUEST_TOKEN: s.tokens.idRequest,
      ACTIONS_ID_TOKEN_REQUEST_URL: 'http://127.0.0.1:9/_apis/idtoken',
      ANTHROPIC_API_KEY: s.tokens.modelKey,
      ANTHROPIC_BASE_URL: model.url,
    };
    const result = await spawnCli(await cliPath(process.env.PE_GITHUB_CLI), ['github', '--trace', trace, ...args], env, { timeoutMs: 150_000 });
    const requests = [...model.requests];
    return {
      ...result,
      requests,
      toolResults: toolResultsOf(requests),
      trace: existsSync(trace) ? readFileSync(trace, 'utf8') : '',
      modelText: requests.map((r) => JSON.stringify(r.body)).join('\n'),
    };
  } finally {
    await model.close();
  }
}

/** The output for a failed assertion: what the CLI said. */
export const story = (r: CliExit): string => `\n--- exit ${r.code}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr.slice(-6000)}`;

/** Heads on `origin` (branch → commit). */
export function originHeads(s: GitHubScene): Map<string, string> {
  const out = git(s.origin, 'for-each-ref', '--format=%(refname:short) %(objectname)', 'refs/heads');
  return new Map(
    out
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split(' ') as [string, string]),
  );
}
