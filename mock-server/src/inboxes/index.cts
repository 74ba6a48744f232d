/** What other features may use of the inbox service (its internals stay in this folder). */
export { DetectionError, resolveSettings } from './detect.cjs';
export { STATUS_OF_CODE } from './create.cjs';
export { providerOfDomain } from './providers.cjs';
