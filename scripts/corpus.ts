/**
 * `npm run corpus [-- --grep PATTERN] [--verbose]`: runs the ordinary-projects corpus (test/system/corpus)
 * plain, unsandboxed and sandboxed, prints each scenario's differences as it goes (with --verbose, the
 * CLI's last lines too) and, last, the table and the count "N of M ordinary projects behave the same
 * sandboxed and unsandboxed". Exits 0 only when every scenario run behaves the same three ways.
 * Builds nothing: run `npm run build` first (a stale dist/cli.js is bundled afresh, see cliRun.ts).
 */
import { CORPUS, judgeScenario } from '../test/system/corpus/corpus';
import { startRegistry } from '../test/system/corpus/registry';
import { behavesTheSame, formatTable, type ScenarioResult } from '../test/system/corpus/table';
import { createCorpusWorld } from '../test/system/corpus/threeWays';

async function main(argv: string[]): Promise<number> {
  const at = argv.indexOf('--grep');
  const grep = at >= 0 ? new RegExp(argv[at + 1] ?? '', 'i') : undefined;
  const verbose = argv.includes('--verbose');
  const chosen = CORPUS.filter((s) => !grep || grep.test(s.name));
  const registry = await startRegistry();
  const world = createCorpusWorld({ registryUrl: registry.url });
  const results: ScenarioResult[] = [];
  try {
    for (const s of chosen) {
      const started = Date.now();
      const r = await judgeScenario(world, s).catch((e: unknown) => ({ scenario: s, diffs: [], error: String(e), story: String(e) }));
      results.push(r);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const story = verbose ? r.story : (r.story.split('\n--- unsandboxed CLI')[0] ?? '');
      process.stdout.write(behavesTheSame(r) ? `✓ ${s.name} (${seconds} s)\n` : `✗ ${story} (${seconds} s)\n\n`);
    }
  } finally {
    world.dispose();
    await registry.close();
  }
  process.stdout.write(`\n${formatTable(results)}\n`);
  return results.every(behavesTheSame) ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(2);
  },
);
