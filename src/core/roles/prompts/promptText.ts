/**
 * A versioned prompt. The first line of every prompt is a machine-readable marker
 * ("plan-execute role: planner (prompt planner.v1)"): the trace records the version, and the test
 * Messages server routes requests by it.
 */
import type { RoleName } from '../../model/modelClient';

export interface PromptText {
  role: RoleName;
  /** "v1", "v2", ... */
  version: string;
  text: string;
}

export function withMarker(role: RoleName, version: string, body: string): PromptText {
  return { role, version, text: `plan-execute role: ${role} (prompt ${role}.${version})\n${body.trim()}\n` };
}
