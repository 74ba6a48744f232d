/**
 * The dashboard's script and styles. The package carries them built (dist/dashboard, made by
 * build.cjs); from the sources they are bundled on first use (esbuild, a development dependency).
 * Nothing is fetched from elsewhere: no CDN at run time.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RUNS_FROM_BUNDLE } from '../core/helpers.cjs';

export interface DashboardAssets {
	js: string;
	css: string;
}

let assets: Promise<DashboardAssets> | undefined;

export function dashboardAssets(): Promise<DashboardAssets> {
	assets ??= RUNS_FROM_BUNDLE
		? Promise.resolve({
				js: readFileSync(join(__dirname, 'dashboard', 'app.js'), 'utf8'),
				css: readFileSync(join(__dirname, 'dashboard', 'app.css'), 'utf8'),
			})
		: (
				require('./ui/bundle.cjs') as { bundleDashboard: () => Promise<DashboardAssets> }
			).bundleDashboard();
	return assets;
}
