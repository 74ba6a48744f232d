/** Text as the reports' formats take it: XML (JUnit) and a Markdown table's cell (GitHub). */

export const escapeXml = (text: string): string =>
	text
		.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;');

export const markdownCell = (text: string): string =>
	text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
