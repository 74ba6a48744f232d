/** The dashboard: a page over the admin API, live. */
export { dashboardRoutes } from './routes.cjs';
