// The dashboard's two files, made from the sources with esbuild: app.js (Preact, htm, TanStack
// Virtual, uPlot and the page, one minified script) and app.css (uPlot's styles and the page's).
// Used by build.cjs for the package, and by the server when it runs from the sources.
'use strict';
const { build } = require('esbuild');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

async function bundleDashboard() {
	const result = await build({
		entryPoints: [join(__dirname, 'main.mts')],
		bundle: true,
		write: false,
		format: 'iife',
		platform: 'browser',
		target: 'es2022',
		minify: true,
		legalComments: 'none',
		logLevel: 'warning',
	});
	const uplotCss = readFileSync(require.resolve('uplot/dist/uPlot.min.css'), 'utf8');
	return {
		js: result.outputFiles[0].text,
		css: `${uplotCss}\n${readFileSync(join(__dirname, 'style.css'), 'utf8')}`,
	};
}

module.exports = { bundleDashboard };
