/**
 * The trace as JSONL: one event per line. Writing is plain JSON; reading back validates every line with
 * the event schemas (a trace file is a trust boundary — it may be hand-edited, truncated by a crash, or
 * written by an older version), and reports bad lines instead of guessing.
 */
import { TraceEventSchema, type TraceEvent } from '../contracts/traceEvents';

export interface TraceProblem {
  /** 1-based line number (or index + 1 for already-parsed values). */
  line: number;
  message: string;
}

export interface DecodedTrace {
  events: TraceEvent[];
  problems: TraceProblem[];
}

export function encodeEvent(event: TraceEvent): string {
  return JSON.stringify(event);
}

export function encodeTrace(events: readonly TraceEvent[]): string {
  return events.map(encodeEvent).join('\n') + (events.length > 0 ? '\n' : '');
}

/** Parses and validates a JSONL trace. A final partial line (a crash mid-write) is reported, not fatal. */
export function decodeTrace(text: string): DecodedTrace {
  const values: unknown[] = [];
  const problems: TraceProblem[] = [];
  const lineNumbers: number[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    try {
      values.push(JSON.parse(line));
      lineNumbers.push(i + 1);
    } catch {
      problems.push({ line: i + 1, message: 'not valid JSON (a partial write?)' });
    }
  });
  const checked = validateEvents(values);
  return {
    events: checked.events,
    problems: [...problems, ...checked.problems.map((p) => ({ ...p, line: lineNumbers[p.line - 1] ?? p.line }))].sort((a, b) => a.line - b.line),
  };
}

/** Validates values already parsed from JSON (e.g. `Store.readEvents`). */
export function validateEvents(values: readonly unknown[]): DecodedTrace {
  const events: TraceEvent[] = [];
  const problems: TraceProblem[] = [];
  values.forEach((value, i) => {
    const parsed = TraceEventSchema.safeParse(value);
    if (parsed.success) events.push(parsed.data);
    else problems.push({ line: i + 1, message: parsed.error.issues.map((issue) => `${issue.path.join('.') || 'event'}: ${issue.message}`).join('; ') });
  });
  return { events, problems };
}
