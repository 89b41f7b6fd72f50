/**
 * The entry of dist/engine.js, loaded by the host on the first mission: src/core's mission loop, the model
 * SDK and this window's Workspace/Terminal adapters. Nothing in the activation or host bundles imports
 * these modules directly (only their types), which keeps activation small.
 */
import { windowAdapters } from './adapters';
import { createCoreEngine, type EngineHost } from './coreEngine';
import type { MissionEngine } from './engineBridge';
import { useHostLog } from '../../node/hostLog';

export function createWindowEngine(host: Omit<EngineHost, 'adapters'>): MissionEngine {
  useHostLog(host.log); // this bundle's own copy of the host log (the sandbox runs here)
  return createCoreEngine({ ...host, adapters: windowAdapters });
}

/** What a provider offers, for "Choose Model" (needs the model SDKs, so it lives here). */
export { listModels } from '../models/modelListing';
