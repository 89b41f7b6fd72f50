import type { JoinOptions } from '../types';
import { joinPath } from '../path';

// Compiles only when JoinOptions declares a string separator.
export const backslash: JoinOptions = { separator: '\\' };
export const joined: string = joinPath(['a'], { separator: '.', trailing: false });
