/**
 * The host's log for the Node adapters: where a failure goes that no caller waits for and no trace holds —
 * a background removal that failed, a stale layer the sweep could not remove. The front end points it at
 * its `Diagnostics` (VS Code's log channel); until then it is stderr (the CLI's log). Each bundle that holds
 * this module holds its own copy, so each entry points it (dist/host.js in host.ts, dist/engine.js in
 * engineEntry.ts). A failure that a caller can act on is thrown or returned instead, never only logged here.
 */
import type { Diagnostics } from '../core/ports';

const stderrLog: Diagnostics = {
  error: (message) => {
    try {
      process.stderr.write(`plan-execute: ${message}\n`);
    } catch {
      // EPIPE or a closed stream: stderr itself is gone, there is nowhere left to say it.
    }
  },
};

let sink: Diagnostics = stderrLog;

/** Sends the Node adapters' reports to `log` from now on. */
export function useHostLog(log: Diagnostics): void {
  sink = log;
}

/** Reports a failure no caller handles. Never throws. */
export function reportToHostLog(message: string): void {
  sink.error(message);
}
