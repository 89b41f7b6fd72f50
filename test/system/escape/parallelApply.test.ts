/**
 * Two steps at once over one workspace (issue: the overlay's live lower layer). The kernel calls a change to
 * a mounted overlay's lower layer undefined, so a step's apply must never write the workspace while another
 * step's staged command runs over it (src/core/tools/workspaceLock.ts). Here step `reader` runs a command
 * that reads a file for four seconds; step `writer`, started beside it, rewrites that file in its own layer a
 * second later. What must hold, measured on what the processes saw and what the workspace holds:
 *   - the two commands really ran at the same time (the writer wrote while the reader read);
 *   - the reader saw one content from start to end — never the writer's change appearing under it;
 *   - the writer's change reached the workspace, and only after the reader's command had ended.
 */
import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { seen, sh } from '../sandbox/cliRun';
import { story, useEscapeSuite } from '../sandbox/escapeCase';

const READER = [
  'import json, time',
  'start = time.time(); seen = []',
  'while time.time() - start < 4:',
  "    seen.append(open('shared/data.txt').read()); time.sleep(0.05)",
  "print('READ ' + json.dumps({'start': start, 'end': time.time(), 'distinct': sorted(set(seen)), 'reads': len(seen)}))",
].join('\n');

const WRITER = ['import json, time', 'time.sleep(1)', "open('shared/data.txt', 'w').write('new\\n')", "print('WROTE ' + json.dumps({'at': time.time()}))"].join(
  '\n',
);

const Read = z.object({ start: z.number(), end: z.number(), distinct: z.array(z.string()), reads: z.number() });
const Wrote = z.object({ at: z.number() });

function printed<T>(text: string, marker: string, schema: z.ZodType<T>): T {
  const line = new RegExp(`${marker} (\\{.*\\})`).exec(text)?.[1];
  assert.ok(line, `the command printed its ${marker} line:\n${text}`);
  return schema.parse(JSON.parse(line));
}

describe('parallel steps over one workspace: an apply never changes what a running command reads', function () {
  this.timeout(180_000);
  const suite = useEscapeSuite();

  it("a step's change reaches the workspace only after the other step's command that reads it has ended", async function () {
    if (process.platform !== 'linux') this.skip();
    const s = suite.scene((sc) => {
      mkdirSync(join(sc.ws, 'shared'), { recursive: true });
      writeFileSync(join(sc.ws, 'shared/data.txt'), 'old\n');
      writeFileSync(join(sc.ws, 'scripts/reader.py'), READER);
      writeFileSync(join(sc.ws, 'scripts/writer.py'), WRITER);
    });
    const o = await suite.run(s, {
      args: ['--sandbox', 'required'],
      steps: [
        { id: 'reader', authority: { edit: ['reports/**'], commands: ['python3 scripts/reader.py'] }, turns: [[sh('read', 'python3 scripts/reader.py')]] },
        { id: 'writer', authority: { edit: ['shared/**'], commands: ['python3 scripts/writer.py'] }, turns: [[sh('write', 'python3 scripts/writer.py')]] },
      ],
    });
    const read = printed(seen(o.mission, 'read'), 'READ', Read);
    const wrote = printed(seen(o.mission, 'write'), 'WROTE', Wrote);
    assert.ok(read.start < wrote.at && wrote.at < read.end, `the writer wrote while the reader read (${JSON.stringify({ read, wrote })})${story(o)}`);
    assert.deepEqual(read.distinct, ['old\n'], `the reader saw the content it began with throughout, not ${JSON.stringify(read.distinct)}${story(o)}`);
    assert.equal(readFileSync(join(s.ws, 'shared/data.txt'), 'utf8'), 'new\n', `the writer's change reached the workspace${story(o)}`);
    const applied = o.mission.events.find((e) => e.type === 'command_sandbox' && e['stepId'] === 'writer');
    const at = z.object({ at: z.string(), applied: z.array(z.string()) }).parse(applied);
    assert.deepEqual(at.applied, ['shared/data.txt'], story(o));
    assert.ok(
      Date.parse(at.at) / 1000 >= read.end,
      `the apply ended after the reader's command ended (applied ${at.at}, reader ended ${new Date(read.end * 1000).toISOString()})${story(o)}`,
    );
  });
});
