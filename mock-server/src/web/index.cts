/** What other features may use of the synthetic web (its internals stay in this folder). */
export {
	hostnameOf,
	isSyntheticHost,
	registerSyntheticWeb,
	SYNTHETIC_WEB_KEEP_ALIVE_MS,
	TAG_MANAGER_HOST,
} from './routes.cjs';
export { runSyntheticWebThread, startSyntheticWebWorker } from './worker.cjs';
