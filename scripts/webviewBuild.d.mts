// Types of ./webviewBuild.mjs for the TypeScript tests that run its plugins.
import type { Plugin } from 'esbuild';

export function forbidWebviewValues(root: string, bundle: string): Plugin;
export function deriveHostSchema(root: string): Plugin;
