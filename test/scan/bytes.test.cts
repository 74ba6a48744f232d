import { analyzeContainer } from '../../mock-server/src/scan/container.cjs';
import { scanPage } from '../../mock-server/src/scan/page.cjs';

/**
 * Pages and containers are read as the bytes received (only the parts that matter become
 * strings): the cases the fixture corpus does not show.
 */
const META = "fbq('init', '123456789012345');";
const bytes = (text: string) => Buffer.from(text, 'utf8');

describe('a page read as bytes', () => {
	it('finds tags in any letter case, after non-ASCII text', () => {
		const page = bytes(
			`<html><p>Café Zürich — ünïcödé</p><SCRIPT type="text/javascript">${META}</SCRIPT>` +
				`<NoScript><img src="https://www.facebook.com/tr?id=223456789012345&ev=PageView"></NoScript></html>`,
		);
		const { findings } = scanPage(page);
		expect(findings.map(({ id, where }) => ({ id, where }))).toEqual([
			{ id: '123456789012345', where: 'script' },
			{ id: '223456789012345', where: 'noscript' },
		]);
	});

	it('searches the markup between scripts only where it names a tracker host', () => {
		const page = bytes(
			`<body><a href="/about">About</a><script>var x = 1;</script>` +
				`<img height="1" src="https://www.facebook.com/tr?id=323456789012345&ev=PageView"></body>`,
		);
		expect(scanPage(page).findings).toEqual([
			expect.objectContaining({ kind: 'metaPixel', id: '323456789012345', where: 'page' }),
		]);
	});

	it('reads a script that is never closed to the end of the page', () => {
		const page = bytes(`<body><script type="text/plain">${META}`);
		expect(scanPage(page).findings).toEqual([
			expect.objectContaining({
				id: '123456789012345',
				where: 'script (disabled: type=text/plain)',
			}),
		]);
	});
});

describe('a container read as bytes', () => {
	const html = (code: string) => ({
		resource: { macros: [{ function: '__e' }], tags: [{ function: '__html', vtp_html: code }] },
	});

	it('finds the data object however the assignment is spaced, past look-alikes', () => {
		const data = JSON.stringify(html(`<script>${META}</script>`));
		const container = bytes(
			`var metadata = {"x": 1};\n/* var data is set below */\nvar\tdata\n=\n ${data};\nvar ba=function(a){return{}};`,
		);
		const { parsed, findings } = analyzeContainer(container, 'container GTM-TEST');
		expect(parsed).toBe(true);
		expect(findings).toEqual([
			expect.objectContaining({
				id: '123456789012345',
				where: 'container GTM-TEST tag #0 (__html)',
			}),
		]);
	});

	it('keeps braces and quotes inside strings out of the object bounds', () => {
		const data = JSON.stringify(html(`<script>if (a) { b("}\\"'"); } ${META}</script>`));
		const { parsed, findings } = analyzeContainer(
			bytes(`var data = ${data}; var tail = "}";`),
			'container GTM-TEST',
		);
		expect(parsed).toBe(true);
		expect(findings.map((f) => f.id)).toEqual(['123456789012345']);
	});

	it('falls back to the unescaped text when the object cannot be parsed', () => {
		const { parsed, findings } = analyzeContainer(
			bytes(`var data = {"resource": oops}; var code = "fbq('init', '123456789012345')";`),
			'container GTM-TEST',
		);
		expect(parsed).toBe(false);
		expect(findings).toEqual([
			expect.objectContaining({ id: '123456789012345', where: 'container GTM-TEST (unparsed)' }),
		]);
	});
});
