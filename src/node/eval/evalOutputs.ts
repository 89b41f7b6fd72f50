/**
 * Writing what an eval produced — the results JSON (with derived totals), the HTML report, the Markdown
 * summary — and `eval merge`, which reads results files back (validated), joins them and writes the same
 * three. Files are written whole (temp file, then rename), so a reader never sees half a report.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import type { CliIO } from '../cliMission';
import type { EvalMergeArgs } from './evalArgs';
import { htmlReport } from './htmlReport';
import { mergeFiles, parseEvalFile, type EvalFile } from './results';
import { markdownSummary } from './summary';
import { configTotals } from './totals';
import { errorText } from '../../core/primitives/errorText';

export interface OutputPaths {
  json?: string;
  report?: string;
  markdown?: string;
}

function writeWhole(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, text);
  renameSync(temp, path);
}

/** The results file as written: each configuration with its totals (derived; recomputed on read). */
export function serialise(file: EvalFile): string {
  return `${JSON.stringify({ ...file, configs: file.configs.map((c) => ({ ...c, totals: configTotals(c) })) }, null, 2)}\n`;
}

export function writeOutputs(file: EvalFile, paths: OutputPaths): void {
  if (paths.json) writeWhole(paths.json, serialise(file));
  if (paths.report) writeWhole(paths.report, htmlReport(file));
  if (paths.markdown) writeWhole(paths.markdown, markdownSummary(file));
}

/** A path relative to `fromDir` re-expressed relative to `toDir` (absolute paths stay absolute). */
export function rebasePath(path: string, fromDir: string, toDir: string): string {
  if (isAbsolute(path)) return path;
  const rel = relative(toDir, resolve(fromDir, path));
  return rel.split(sep).join('/');
}

export function mergeCommand(args: EvalMergeArgs, io: CliIO): number {
  const out = resolve(args.json ?? args.report ?? args.markdown ?? 'merged.json');
  const outDir = dirname(out);
  const files: { name: string; file: EvalFile; rebase: (path: string) => string }[] = [];
  for (const input of args.inputs) {
    let text: string;
    try {
      text = readFileSync(input, 'utf8');
    } catch (error) {
      io.stderr.write(`error: cannot read ${input}: ${errorText(error)}\n`);
      return 2;
    }
    const parsed = parseEvalFile(text, input);
    if (!parsed.ok) {
      io.stderr.write(`error: ${parsed.error}\n`);
      return 2;
    }
    const fromDir = dirname(resolve(input));
    files.push({ name: input, file: parsed.value, rebase: (p) => rebasePath(p, fromDir, outDir) });
  }
  const merged = mergeFiles(files);
  if (!merged.ok) {
    io.stderr.write(`error: ${merged.error}\n`);
    return 2;
  }
  for (const note of merged.value.notes) io.stderr.write(`note: ${note}\n`);
  writeOutputs(merged.value.file, args);
  io.stdout.write(`${markdownSummary(merged.value.file)}\n`);
  if (!args.json && !args.report && !args.markdown) io.stderr.write('note: nothing written (give --json, --report or --markdown); the summary is above\n');
  return 0;
}
