/**
 * How long a provider asked us to wait, read from its response headers. Order: `retry-after-ms` (exact),
 * `retry-after` (seconds or an HTTP date), then the rate-limit reset headers — Anthropic's
 * `anthropic-ratelimit-*-reset` (RFC 3339 times) and OpenAI's `x-ratelimit-reset-*` (durations such as
 * "1s", "6m0s", "250ms"). For the reset headers, the limits whose `remaining` is 0 decide; when none says
 * so, the soonest reset still in the future does. Undefined when the headers say nothing usable.
 */
export type HeaderBag = Headers | Record<string, string | string[] | undefined> | undefined | null;

function header(headers: HeaderBag, name: string): string | undefined {
  if (!headers) return undefined;
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const bag = headers as Record<string, string | string[] | undefined>;
  const value = bag[name] ?? Object.entries(bag).find(([k]) => k.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? value[0] : value;
}

function headerNames(headers: HeaderBag): string[] {
  if (!headers) return [];
  if (typeof (headers as Headers).forEach === 'function' && typeof (headers as Headers).get === 'function') {
    const names: string[] = [];
    (headers as Headers).forEach((_v, k) => names.push(k.toLowerCase()));
    return names;
  }
  return Object.keys(headers).map((k) => k.toLowerCase());
}

/** "1s", "6m0s", "1h2m3.5s", "250ms" → milliseconds. */
export function parseDuration(text: string): number | undefined {
  const t = text.trim();
  if (/^\d+(\.\d+)?$/.test(t)) return Number(t) * 1000;
  const re = /(\d+(?:\.\d+)?)(ms|h|m|s)/g;
  let total = 0;
  let consumed = 0;
  for (const m of t.matchAll(re)) {
    const n = Number(m[1]);
    total += m[2] === 'ms' ? n : m[2] === 's' ? n * 1000 : m[2] === 'm' ? n * 60_000 : n * 3_600_000;
    consumed += m[0].length;
  }
  return consumed === t.length && consumed > 0 ? total : undefined;
}

export function retryAfterMs(headers: HeaderBag, now: number = Date.now()): number | undefined {
  const ms = header(headers, 'retry-after-ms');
  if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.max(0, Math.round(Number(ms)));
  const after = header(headers, 'retry-after');
  if (after !== undefined) {
    if (/^\d+(\.\d+)?$/.test(after.trim())) return Math.max(0, Math.round(Number(after) * 1000));
    const date = Date.parse(after);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  return resetWaitMs(headers, now);
}

function resetWaitMs(headers: HeaderBag, now: number): number | undefined {
  const exhausted: number[] = [];
  const all: number[] = [];
  for (const name of headerNames(headers)) {
    const anthropic = /^anthropic-ratelimit-(.+)-reset$/.exec(name);
    const openai = /^x-ratelimit-reset-(.+)$/.exec(name);
    const value = header(headers, name);
    if (value === undefined) continue;
    let wait: number | undefined;
    let remaining: string | undefined;
    if (anthropic) {
      const at = Date.parse(value);
      wait = Number.isNaN(at) ? undefined : at - now;
      remaining = header(headers, `anthropic-ratelimit-${anthropic[1]}-remaining`);
    } else if (openai) {
      wait = parseDuration(value);
      remaining = header(headers, `x-ratelimit-remaining-${openai[1]}`);
    } else continue;
    if (wait === undefined || wait <= 0) continue;
    all.push(wait);
    if (remaining !== undefined && Number(remaining) === 0) exhausted.push(wait);
  }
  if (exhausted.length > 0) return Math.round(Math.max(...exhausted));
  if (all.length > 0) return Math.round(Math.min(...all));
  return undefined;
}
