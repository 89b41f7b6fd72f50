/**
 * Context budget: how much raw material travels inline in a handoff or a replan request. Raw results are
 * never summarised by a model here — they are capped (head and tail kept, with a marker saying how much
 * was cut and the tool-call id to fetch the rest by), so the executor sees real output and knows when it
 * is partial.
 */
export interface ContextBudget {
  /** Characters of raw output kept inline per tool call. */
  perToolCallChars: number;
  /** Tool calls carried inline per dependency (the most recent; the rest by reference only). */
  toolCallsPerDependency: number;
  /** Characters of a finished step's summary given to the replanner. */
  summaryChars: number;
}

export const DEFAULT_CONTEXT_BUDGET: ContextBudget = {
  perToolCallChars: 4000,
  toolCallsPerDependency: 12,
  summaryChars: 600,
};

/** Keeps the head and tail of `text` within `max` characters, marking the cut and where the rest lives. */
export function capText(text: string, max: number, ref?: string): string {
  if (text.length <= max) return text;
  const where = ref ? `; fetch tool call ${ref} for all of it` : '';
  const marker = `\n… [${text.length - max} characters cut${where}] …\n`;
  const room = Math.max(0, max - marker.length);
  const head = Math.ceil(room * 0.6);
  return text.slice(0, head) + marker + text.slice(text.length - (room - head));
}
