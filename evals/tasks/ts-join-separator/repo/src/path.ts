import type { JoinOptions } from './types';

/** The non-empty parts joined by "/": joinPath(["a", "", "b"]) → "a/b". */
export function joinPath(parts: readonly string[], options: JoinOptions = {}): string {
  const joined = parts.filter((p) => p !== '').join('/');
  return options.trailing ? `${joined}/` : joined;
}
