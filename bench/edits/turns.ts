/**
 * How many executor turns a drifted edit costs, through the real engine (startMission, the real step tools,
 * a real temp workspace) and the scriptable Messages server — the adversarial test harness.
 *   npx tsx bench/edits/turns.ts [--per-class N]
 * The scripted executor is a careful model that only knows its intent (the file it wants) and what the
 * tools tell it: turn 1 sends the drifted edit; after a refusal it retries at once when the message shows
 * the file's real lines around the change (numbered lines), else it views the file first and then retries
 * with the real lines (more context on each further retry). Counted: executor turns until the file is the intended one (the report turn aside);
 * an edit applied wrongly is counted as landed wrong (a model is not told).
 * blank_refused: drifted cases with one intended place that the engine refuses (their blank lines read two
 * ways): what such a refusal costs until the edit lands.
 * Run it in a checkout of another revision (same script) to compare.
 */
import { applyEdit } from '../../src/core/edits/applyEdit';
import { buildCorpus } from './corpus';
import { driftCasesFor } from './drift';
import { oldDriftCasesFor } from './oldDrift';
import { casesFor, type BenchCase } from './perturb';
import { cleanup, edit, plan, read, report, runAdversarialMission, step, write, type MissionRun } from '../../test/unit/adversarial/harness';
import type { RecordedRequest } from '../../test/support/messages-server/scenario';

const CLASSES = ['blank_fewer', 'blank_more', 'blank_several', 'old_fewer', 'old_more', 'old_more_edge', 'blank_refused', 'trailing_ws_leak', 'near_miss'];
const PATH = 'src/file.js';
const MAX_TURNS = 6;

interface Outcome {
  turns: number;
  landed: 'right' | 'wrong' | 'never';
}

/** The numbered lines a tool result shows (`   12\ttext`), by line number. */
function shownLines(text: string): Map<number, string> {
  const out = new Map<number, string>();
  for (const m of text.matchAll(/^[-+ ]?\s*(\d+)\t(.*)$/gm)) out.set(Number(m[1]), m[2] as string);
  return out;
}

/** The smallest edit from `file` to `want`, with `ctx` lines of context each side. */
function realEdit(file: string, want: string, ctx = 1): { from: number; to: number; oldText: string; newText: string } {
  const a = file.split('\n');
  const b = want.split('\n');
  let p = 0;
  while (p < a.length && p < b.length && a[p] === b[p]) p++;
  let s = 0;
  while (s < a.length - p && s < b.length - p && a[a.length - 1 - s] === b[b.length - 1 - s]) s++;
  const from = Math.max(0, p - ctx);
  const toA = Math.min(a.length, a.length - s + ctx);
  const toB = Math.min(b.length, b.length - s + ctx);
  return { from, to: toA, oldText: a.slice(from, toA).join('\n'), newText: b.slice(from, toB).join('\n') };
}

function lastToolResult(req: RecordedRequest): { content: string; isError: boolean } | undefined {
  const last = (req.body.messages ?? []).at(-1);
  if (!last || last.role !== 'user' || typeof last.content === 'string') return undefined;
  for (const b of last.content) {
    if (b.type !== 'tool_result') continue;
    const content = typeof b.content === 'string' ? b.content : (b.content as { type: string; text?: string }[]).map((x) => x.text ?? '').join('\n');
    return { content, isError: b.is_error === true };
  }
  return undefined;
}

async function measure(c: BenchCase & { expected: string }): Promise<Outcome> {
  let viewed = false;
  let retries = 0;
  let turns = 0;
  let done = false;
  const real = realEdit(c.file, c.expected);
  let run: MissionRun | undefined;
  try {
    run = await runAdversarialMission({
      plan: plan(
        [
          step('s1', {
            authority: { read: ['**'], edit: ['src/**'], commands: [] },
            evidence: { checks: [{ kind: 'files_exist', paths: [PATH] }], description: '' },
          }),
        ],
        { direct: true },
      ),
      setup: (ws) => write(ws, PATH, c.file),
      rules: [
        {
          name: 'executor',
          match: { role: 'executor' },
          respond: (req) => {
            const result = lastToolResult(req);
            if (done || turns >= MAX_TURNS) return report('done');
            if (result && !result.isError && result.content.includes(`Edited ${PATH}`)) {
              done = true;
              return report('edited');
            }
            turns++;
            if (!result) return { toolUse: [edit(PATH, { command: 'str_replace', old_str: c.oldText, new_str: c.newText })] };
            // A refusal: are the file's real lines of the change shown (numbered)? Then retry with them.
            const shown = shownLines(result.content);
            const lines = c.file.split('\n');
            const covered = Array.from({ length: real.to - real.from }, (_, i) => real.from + i).every((i) => shown.get(i + 1) === lines[i]);
            if (covered || viewed) {
              // Each retry quotes more context (a short quote can be ambiguous).
              const quote = retries === 0 ? real : realEdit(c.file, c.expected, 1 + 3 * retries);
              retries++;
              return { toolUse: [edit(PATH, { command: 'str_replace', old_str: quote.oldText, new_str: quote.newText })] };
            }
            viewed = true;
            return { toolUse: [edit(PATH, { command: 'view' })] };
          },
        },
        { name: 'verifier', match: { role: 'verifier' }, respond: () => report('fine') },
      ],
    });
    const final = read(run.ws, PATH);
    return { turns, landed: final === c.expected ? 'right' : final === c.file ? 'never' : 'wrong' };
  } finally {
    await cleanup(run);
  }
}

async function main(): Promise<void> {
  const i = process.argv.indexOf('--per-class');
  const per = i > 0 ? Number(process.argv[i + 1]) : 8;
  const edits = buildCorpus();
  const all = edits.flatMap((e, k) => [...casesFor(e), ...driftCasesFor(e, edits[(k + 97) % edits.length]), ...oldDriftCasesFor(e)]);
  // near_miss: the model misremembers one identifier; the intended result is the real edit's.
  const exactById = new Map(all.filter((c) => c.category === 'exact').map((c) => [c.id, c]));
  const nearMiss = all
    .filter((c) => c.category === 'absent_near_miss')
    .flatMap((c) => {
      const exact = exactById.get(c.id);
      return exact ? [{ ...c, category: 'near_miss', expected: exact.expected }] : [];
    });
  // blank_refused: drifted cases with one intended place that the engine refuses (two readings of the blank
  // lines): what a refusal costs until the edit lands.
  const refusedDrift = all.flatMap((c) => {
    const drifted = /^(blank_|old_)/.test(c.category) && c.expected !== null && !applyEdit(c.file, { oldText: c.oldText, newText: c.newText }).ok;
    return drifted ? [{ ...c, category: 'blank_refused' }] : [];
  });
  const pool = [...all, ...nearMiss, ...refusedDrift].filter((c): c is BenchCase & { expected: string } => c.expected !== null && !c.file.includes('\r'));
  console.log('class              cases   turns (mean)   1 turn   landed right   landed wrong   never');
  for (const cls of CLASSES) {
    const inClass = pool.filter((c) => c.category === cls);
    const picked = Array.from(
      { length: Math.min(per, inClass.length) },
      (_, k) => inClass[Math.floor((k * inClass.length) / per)] as BenchCase & { expected: string },
    );
    const outcomes: Outcome[] = [];
    for (const c of picked) outcomes.push(await measure(c));
    const n = outcomes.length;
    const mean = outcomes.reduce((a, o) => a + o.turns, 0) / Math.max(1, n);
    const count = (p: (o: Outcome) => boolean): number => outcomes.filter(p).length;
    console.log(
      `${cls.padEnd(18)}${String(n).padStart(6)}${mean.toFixed(2).padStart(15)}${String(count((o) => o.turns === 1 && o.landed === 'right')).padStart(9)}${String(count((o) => o.landed === 'right')).padStart(15)}${String(count((o) => o.landed === 'wrong')).padStart(15)}${String(count((o) => o.landed === 'never')).padStart(8)}`,
    );
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
