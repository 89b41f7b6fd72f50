/**
 * The ordinary-projects corpus: legitimate work must not break. Each scenario — a repository
 * shape, one step's authority, the commands its executor runs — runs plain, through the real CLI with
 * `--sandbox off` and with `--sandbox required`, each on a fresh copy, and the three are compared (the
 * rule: compare.ts). A scenario listed in KNOWN_BROKEN_ON_MAIN is asserted to be still broken, so that
 * a fix is noticed; every other one must behave the same three ways. `npm run corpus` prints the table.
 */
import { strict as assert } from 'node:assert';
import { CORPUS, judgeScenario } from './corpus';
import { KNOWN_BROKEN_ON_MAIN } from './knownBroken';
import { startRegistry, type Registry } from './registry';
import { formatTable, type ScenarioResult } from './table';
import { createCorpusWorld, type CorpusWorld } from './threeWays';

describe('ordinary projects behave the same sandboxed, unsandboxed and plain (corpus)', function () {
  this.timeout(300_000);
  let registry: Registry | undefined;
  let world: CorpusWorld | undefined;
  const results: ScenarioResult[] = [];

  before(async () => {
    registry = await startRegistry();
    world = createCorpusWorld({ registryUrl: registry.url });
  });
  after(async () => {
    if (results.length > 0) console.log(`\n${formatTable(results)}\n`);
    world?.dispose();
    await registry?.close();
  });

  it('KNOWN_BROKEN_ON_MAIN names scenarios of the corpus, each once, each with its reason', () => {
    const names = new Set(CORPUS.map((s) => s.name));
    assert.equal(names.size, CORPUS.length, 'scenario names are unique');
    for (const k of KNOWN_BROKEN_ON_MAIN) {
      assert.ok(names.has(k.scenario), `"${k.scenario}" is not a scenario of the corpus`);
      assert.ok(k.reason.length > 20, `"${k.scenario}" says why it is broken`);
    }
    assert.equal(new Set(KNOWN_BROKEN_ON_MAIN.map((k) => k.scenario)).size, KNOWN_BROKEN_ON_MAIN.length, 'each listed once');
  });

  for (const scenario of CORPUS) {
    const known = KNOWN_BROKEN_ON_MAIN.find((k) => k.scenario === scenario.name);
    it(`${scenario.name}${known ? ' — known broken on main, asserted still broken' : ''}`, async () => {
      if (!world) throw new Error('no corpus world');
      const result = await judgeScenario(world, scenario);
      results.push(result);
      assert.equal(result.error, undefined, result.story);
      const fixed = `"${scenario.name}" now behaves the same three ways: remove it from KNOWN_BROKEN_ON_MAIN (it was: ${known?.reason})`;
      if (known) assert.ok(result.diffs.length > 0, fixed);
      else assert.deepEqual(result.diffs, [], result.story);
    });
  }
});
