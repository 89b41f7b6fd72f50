/**
 * The test host's public surface, for E2E tests and scripts. Each line says where the thing lives.
 *
 *   const host = await startCodeServer();                       // code-server on a free loopback port
 *   const ws = copyWorkspace();                                  // fresh temp copy of a fixture workspace
 *   const wb = await openWorkbench(host, { folder: ws.path });   // headless Chromium on the workbench
 *   const frame = await findWebviewFrame(wb.page, '#app');       // the sidebar webview's document
 *   await wb.close(); await host.stop(); ws.remove();            // teardown (also automatic at exit)
 */
export { DEFAULT_HOST_SETTINGS, startCodeServer, type CodeServer, type CodeServerOptions } from './codeServer';
export { CODE_SERVER_VERSION, VSCODE_VERSION, cacheRoot, repoRoot } from './hostPaths';
export { ensureCodeServer } from './installCodeServer';
export { killAllGroups, spawnGroup, type GroupProcess } from './processGroups';
export { findWebviewFrame, type FindFrameOptions } from './webviewFrame';
export { CHROMIUM_FLAGS, openWorkbench, workbenchUrl, type Workbench, type WorkbenchOptions } from './workbench';
export { DEFAULT_FIXTURE, DEMO_WORKSPACE, copyWorkspace, type TempWorkspace } from './workspace';
