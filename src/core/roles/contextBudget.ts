/**
 * Token budgets for what we put in front of a model. Estimates are chars/4 (cheap, deterministic, and
 * conservative enough for caps); exact counts come from count_tokens only where a caller asks for them.
 */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

/** Caps text at `tokens`, keeping the head, and says how much was cut and where the rest lives. */
export function capTokens(text: string, tokens: number, whereRest = ''): string {
  const maxChars = tokens * 4;
  if (text.length <= maxChars) return text;
  const cut = estimateTokens(text.slice(maxChars));
  return `${text.slice(0, maxChars)}… [${cut} more tokens cut${whereRest ? `; ${whereRest}` : ''}]`;
}

/** Caps text keeping head and tail (for command output, where the end matters). */
export function capMiddle(text: string, tokens: number, whereRest = ''): string {
  const maxChars = tokens * 4;
  if (text.length <= maxChars) return text;
  const half = Math.floor(maxChars / 2);
  const cut = estimateTokens(text.slice(half, text.length - half));
  return `${text.slice(0, half)}\n… [${cut} tokens cut${whereRest ? `; ${whereRest}` : ''}] …\n${text.slice(text.length - half)}`;
}
