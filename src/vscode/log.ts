/**
 * The extension's log: the "Plan & Execute" LogOutputChannel, plus the last lines kept in memory so the
 * integration tests can check what was written (e.g. that the API key never is).
 */
import type * as vscode from 'vscode';
import { errorText } from '../core/primitives/errorText';

export type Log = Pick<vscode.LogOutputChannel, 'trace' | 'debug' | 'info' | 'warn' | 'error'>;

const KEEP = 2000;

export class TeeLog implements Log {
  private readonly lines: string[] = [];

  constructor(private readonly channel: vscode.LogOutputChannel) {}

  private keep(level: string, message: string): void {
    this.lines.push(`${level} ${message}`);
    if (this.lines.length > KEEP) this.lines.splice(0, this.lines.length - KEEP);
  }

  trace(message: string): void {
    this.keep('trace', message);
    this.channel.trace(message);
  }
  debug(message: string): void {
    this.keep('debug', message);
    this.channel.debug(message);
  }
  info(message: string): void {
    this.keep('info', message);
    this.channel.info(message);
  }
  warn(message: string): void {
    this.keep('warn', message);
    this.channel.warn(message);
  }
  error(message: string | Error): void {
    const text = errorText(message);
    this.keep('error', text);
    this.channel.error(text);
  }

  /** What was logged recently, one line per entry. */
  recent(): string {
    return this.lines.join('\n');
  }
}
