/** What other features may use of the website scanning (its internals stay in this folder). */
export type { ScanResult, ScanSummary } from './scanner.cjs';
export { runScannerThread } from './pool.cjs';
export { startWebsiteScanning, type WebsiteScanning } from './website-scanning.cjs';
export { scanningOnDemand } from './on-demand.cjs';
