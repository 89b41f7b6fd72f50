/**
 * The MissionEngine the extension uses. Until the core's mission loop (src/core/mission startMission /
 * resumeMission) is available this returns the engine that refuses plainly.
 */
import { unavailableEngine, type MissionEngine } from './engineBridge';

export function createEngine(): MissionEngine {
  return unavailableEngine;
}
