/**
 * The admin API that tests, CI pipelines and demos drive (docs/api.md). Every call needs
 * `Authorization: Bearer <admin token>`.
 */
import type { FastifyPluginAsync } from 'fastify';
import { requireAdminToken } from '../http/auth.cjs';
import { accountRoutes } from './accounts-routes.cjs';
import { divergenceRoutes } from './divergences-routes.cjs';
import { eventRoutes } from './events-routes.cjs';
import { faultRoutes } from './faults-routes.cjs';
import { journalRoutes } from './journal-routes.cjs';
import { scanRoutes } from './scan-routes.cjs';
import type { AdminRoutesOptions } from './schema.cjs';
import { searchRoutes } from './searches-routes.cjs';
import { stateRoutes } from './state-routes.cjs';

export type { AdminRoutesOptions } from './schema.cjs';

/** The admin API by resource, each part a plugin of its own behind the one token check. */
export const adminRoutes: FastifyPluginAsync<AdminRoutesOptions> = async (app, options) => {
	app.addHook('preValidation', requireAdminToken(options.adminToken));
	for (const routes of [
		accountRoutes,
		searchRoutes,
		scanRoutes,
		faultRoutes,
		journalRoutes,
		divergenceRoutes,
		eventRoutes,
		stateRoutes,
	])
		await app.register(routes, options);
};
