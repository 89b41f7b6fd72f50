/**
 * A prompt-cache simulation, so tests and the token bench see cache reads and writes the way the API
 * reports them: the prefix runs tools → system → messages; a `cache_control` breakpoint caches the prefix up
 * to and including its block; a later request whose prefix up to a breakpoint is byte-identical (ignoring
 * the cache_control markers themselves) reads it. Tokens are estimated as ceil(chars / 4).
 */
import { createHash } from 'node:crypto';
import type { MessagesBody } from './scenario';

export interface SimUsage {
  input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

function stripCacheControl(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripCacheControl);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (k !== 'cache_control') out[k] = stripCacheControl(v);
    return out;
  }
  return value;
}

interface Segment {
  text: string;
  breakpoint: boolean;
}

/** The request as an ordered list of serialized blocks, each flagged if it carries a breakpoint. */
export function segments(body: MessagesBody): Segment[] {
  const out: Segment[] = [{ text: `model:${body.model ?? ''}`, breakpoint: false }];
  for (const tool of body.tools ?? [])
    out.push({ text: JSON.stringify(stripCacheControl(tool)), breakpoint: 'cache_control' in tool && tool.cache_control != null });
  const system = typeof body.system === 'string' ? [{ type: 'text', text: body.system }] : (body.system ?? []);
  for (const block of system) out.push({ text: JSON.stringify(stripCacheControl(block)), breakpoint: 'cache_control' in block && block.cache_control != null });
  for (const message of body.messages ?? []) {
    const blocks = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    blocks.forEach((block, i) => {
      out.push({
        text: (i === 0 ? `${message.role}:` : '') + JSON.stringify(stripCacheControl(block)),
        breakpoint: 'cache_control' in block && block.cache_control != null,
      });
    });
  }
  return out;
}

export class CacheSim {
  private readonly cached = new Set<string>();
  constructor(private readonly minTokens = 0) {}

  usageFor(body: MessagesBody): SimUsage {
    const segs = segments(body);
    const total = estimateTokens(segs.map((s) => s.text).join(''));
    const hash = createHash('sha256');
    let chars = 0;
    const prefixes: { key: string; tokens: number }[] = [];
    for (const seg of segs) {
      hash.update(seg.text);
      chars += seg.text.length;
      if (seg.breakpoint) prefixes.push({ key: hash.copy().digest('hex'), tokens: Math.ceil(chars / 4) });
    }
    let read = 0;
    for (const p of [...prefixes].reverse()) {
      if (this.cached.has(p.key)) {
        read = p.tokens;
        break;
      }
    }
    const last = prefixes.at(-1);
    let write = 0;
    if (last && last.tokens > read && last.tokens >= this.minTokens) write = last.tokens - read;
    for (const p of prefixes) if (p.tokens >= this.minTokens) this.cached.add(p.key);
    return { input_tokens: Math.max(0, total - read - write), cache_read_input_tokens: read, cache_creation_input_tokens: write };
  }
}
