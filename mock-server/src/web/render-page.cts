import { Rng } from '../core/random.cjs';
import { ByteWriter } from './byte-writer.cjs';
import type { SiteProfile } from './profiles.cjs';

/**
 * The HTML of a synthetic business website, written the way real sites carry tracking codes:
 * vendors' base codes, plugin configs, tag-manager snippets, consent-blocked scripts, and the
 * look-alikes a scanner must not count.
 */
const title = (host: string) =>
	host
		.replace(/\.test$/, '')
		.split('-')
		.filter((w) => !/\d/.test(w))
		.map((w) => w[0].toUpperCase() + w.slice(1))
		.join(' ');

const PARAGRAPHS = [
	'We are a family-owned business serving our neighbours for more than fifteen years. Our team is licensed, insured and proud of the work we do every day.',
	'Book an appointment online or give us a call. We offer free estimates, flexible scheduling and transparent pricing with no hidden fees.',
	'Our customers say it best: friendly staff, quick service and results that last. Read the reviews and see why people keep coming back.',
	'We use modern equipment and follow the latest industry standards so that every job is done right the first time.',
	'Gift cards are available in any amount. Ask about our seasonal offers and loyalty programme for returning customers.',
	'Opening hours: Monday to Friday 8:00 to 18:00, Saturday 9:00 to 14:00. Closed on public holidays.',
];

function consent(blocked: boolean): string {
	return blocked ? ' type="text/plain" data-cookieconsent="marketing"' : '';
}

function metaCode(profile: SiteProfile): string {
	const m = profile.meta!;
	const attrs = consent(profile.consentBlocked);
	const loader = `!function(f,b,e,v,n,t,s){if(f.fbq)return;n=f.fbq=function(){n.callMethod?n.callMethod.apply(n,arguments):n.queue.push(arguments)};if(!f._fbq)f._fbq=n;n.push=n;n.loaded=!0;n.version='2.0';n.queue=[];t=b.createElement(e);t.async=!0;t.src=v;s=b.getElementsByTagName(e)[0];s.parentNode.insertBefore(t,s)}(window,document,'script','https://connect.facebook.net/en_US/fbevents.js');`;
	const noscript = `<noscript><img height="1" width="1" style="display:none" src="https://www.facebook.com/tr?id=${m.id}&ev=PageView&noscript=1"/></noscript>`;
	switch (m.variant) {
		case 'base':
			return `<!-- Meta Pixel Code -->\n<script${attrs}>\n${loader}\nfbq('init', '${m.id}');\nfbq('track', 'PageView');\n</script>\n${noscript}\n<!-- End Meta Pixel Code -->`;
		case 'addPixelId':
			return `<script${attrs}>${loader}fbq('addPixelId', '${m.id}');fbq('trackSingle', '${m.id}', 'PageView');</script>`;
		case 'noscript-only':
			return noscript;
		case 'wordpress':
			return `<script type="text/javascript" id="pys-js-extra">\n/* <![CDATA[ */\nvar pysOptions = {"staticEvents":[],"facebook":{"pixelIds":["${m.id}"],"advancedMatching":[],"removeMetadata":false,"contentParams":{"post_type":"page"}},"debug":""};\n/* ]]> */\n</script>`;
	}
}

function tiktokCode(profile: SiteProfile): string {
	const t = profile.tiktok!;
	const attrs = consent(profile.consentBlocked);
	if (t.variant === 'legacy')
		return `<script${attrs} src="https://analytics.tiktok.com/i18n/pixel/sdk.js?sdkid=${t.id}" async></script>`;
	return `<script${attrs}>\n!function (w, d, t) {\n  w.TiktokAnalyticsObject=t;var ttq=w[t]=w[t]||[];ttq.methods=["page","track","identify"];ttq.load=function(e,n){var r="https://analytics.tiktok.com/i18n/pixel/events.js";ttq._i=ttq._i||{};ttq._i[e]=[];var o=d.createElement("script");o.type="text/javascript";o.async=!0;o.src=r+"?sdkid="+e+"&lib="+t;var a=d.getElementsByTagName("script")[0];a.parentNode.insertBefore(o,a)};\n  ttq.load('${t.id}');\n  ttq.page();\n}(window, document, 'ttq');\n</script>`;
}

function gaCode(profile: SiteProfile): string {
	const g = profile.ga!;
	const attrs = consent(profile.consentBlocked);
	switch (g.variant) {
		case 'gtag':
		case 'google-tag':
			return `<!-- Google tag (gtag.js) -->\n<script async src="https://www.googletagmanager.com/gtag/js?id=${g.id}"${attrs}></script>\n<script${attrs}>\n  window.dataLayer = window.dataLayer || [];\n  function gtag(){dataLayer.push(arguments);}\n  gtag('js', new Date());\n  gtag('config', '${g.id}');\n</script>`;
		case 'analytics.js':
			return `<script${attrs}>\n(function(i,s,o,g,r,a,m){i['GoogleAnalyticsObject']=r;i[r]=i[r]||function(){(i[r].q=i[r].q||[]).push(arguments)},i[r].l=1*new Date();a=s.createElement(o),m=s.getElementsByTagName(o)[0];a.async=1;a.src=g;m.parentNode.insertBefore(a,m)})(window,document,'script','https://www.google-analytics.com/analytics.js','ga');\nga('create', '${g.id}', 'auto');\nga('send', 'pageview');\n</script>`;
		case 'ga.js':
			return `<script type="text/javascript">\nvar _gaq = _gaq || [];\n_gaq.push(['_setAccount', '${g.id}']);\n_gaq.push(['_trackPageview']);\n(function() {var ga = document.createElement('script'); ga.type = 'text/javascript'; ga.async = true; ga.src = ('https:' == document.location.protocol ? 'https://ssl' : 'http://www') + '.google-analytics.com/ga.js'; var s = document.getElementsByTagName('script')[0]; s.parentNode.insertBefore(ga, s);})();\n</script>`;
	}
}

function gtmSnippet(id: string, blocked: boolean): { head: string; body: string } {
	return {
		head: `<!-- Google Tag Manager -->\n<script${consent(blocked)}>(function(w,d,s,l,i){w[l]=w[l]||[];w[l].push({'gtm.start':\nnew Date().getTime(),event:'gtm.js'});var f=d.getElementsByTagName(s)[0],\nj=d.createElement(s),dl=l!='dataLayer'?'&l='+l:'';j.async=true;j.src=\n'https://www.googletagmanager.com/gtm.js?id='+i+dl;f.parentNode.insertBefore(j,f);\n})(window,document,'script','dataLayer','${id}');</script>\n<!-- End Google Tag Manager -->`,
		body: `<!-- Google Tag Manager (noscript) -->\n<noscript><iframe src="https://www.googletagmanager.com/ns.html?id=${id}" height="0" width="0" style="display:none;visibility:hidden"></iframe></noscript>`,
	};
}

function decoys(profile: SiteProfile, rng: Rng): string {
	const out: string[] = [];
	if (profile.decoys.includes('facebook-sdk')) {
		out.push(
			`<div id="fb-root"></div>\n<script async defer crossorigin="anonymous" src="https://connect.facebook.net/en_US/sdk.js#xfbml=1&version=v19.0&appId=${rng.int(1, 9)}${rng.digits(15)}"></script>`,
		);
	}
	if (profile.decoys.includes('ads-only-tag')) {
		const aw = `AW-${rng.int(100000000, 999999999)}`;
		out.push(
			`<script async src="https://www.googletagmanager.com/gtag/js?id=${aw}"></script>\n<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments);}gtag('js',new Date());gtag('config','${aw}');</script>`,
		);
	}
	if (profile.decoys.includes('bare-number'))
		out.push(
			`<p class="small">Company registration no. ${rng.int(1, 9)}${rng.digits(15)} &middot; VAT ${rng.digits(10)}</p>`,
		);
	return out.join('\n');
}

const HEADINGS = ['Services', 'About us', 'Reviews', 'Pricing', 'Contact', 'FAQ'];

export function renderPage(profile: SiteProfile): Buffer {
	const rng = new Rng(`page:${profile.host}`);
	const name = title(profile.host);
	const head: string[] = [];
	const body: string[] = [];
	if (profile.containerId) {
		const snippet = gtmSnippet(profile.containerId, profile.consentBlocked && rng.chance(0.5));
		head.push(snippet.head);
		body.push(snippet.body);
	}
	if (profile.ga) head.push(gaCode(profile));
	if (profile.meta)
		(profile.meta.variant === 'noscript-only' ? body : head).push(metaCode(profile));
	if (profile.tiktok) head.push(tiktokCode(profile));

	const page = new ByteWriter().text(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${name}</title>
<meta name="description" content="${name}: local service you can trust.">
<link rel="stylesheet" href="/assets/style.css">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"LocalBusiness","name":"${name}","url":"http://${profile.host}/"}</script>
${head.join('\n')}
</head>
<body>
${body.join('\n')}
<header><nav><a href="/">Home</a> <a href="/services">Services</a> <a href="/contact">Contact</a></nav><h1>${name}</h1></header>
<main>
`);
	// Sections of text up to the page's size, written one by one (no page-sized strings).
	const target = profile.sizeKb * 1024;
	let size = 0;
	for (let i = 0; size < target; i++) {
		const section = `<section class="block block-${i}"><h2>${name} &ndash; ${HEADINGS[i % 6]}</h2><p>${PARAGRAPHS[(i + rng.int(0, 5)) % PARAGRAPHS.length]}</p><p>${PARAGRAPHS[(i * 7 + 3) % PARAGRAPHS.length]}</p></section>`;
		page.text(i > 0 ? '\n' + section : section);
		size += section.length;
	}
	return page
		.text(
			`
</main>
<footer>
${decoys(profile, rng)}
<p>&copy; ${name}. All rights reserved.</p>
</footer>
</body>
</html>`,
		)
		.finish();
}
