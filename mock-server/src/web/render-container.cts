import { Rng } from '../core/random.cjs';
import { ByteWriter } from './byte-writer.cjs';
import { type ContainerProfile, googleTagDestination } from './profiles.cjs';

/**
 * gtm.js and gtag/js responses in Google's container format: `var data = {"resource": {...},
 * "runtime": [...], "permissions": {...}}` followed by a large runtime. Custom HTML is stored
 * JS-escaped and minified, community templates are known only by their permissions, values can
 * be macro or template references.
 */
type Json = unknown;

const escapeHtml = (html: string) =>
	html.replace(/</g, '\\u003C').replace(/>/g, '\\u003E').replace(/=/g, '\\x3d');

const RUNTIME_CHUNK =
	'var ba=function(a){var b=0;return function(){return b<a.length?{done:!1,value:a[b++]}:{done:!0}}},ca=typeof Object.defineProperties=="function"?Object.defineProperty:function(a,b,c){if(a==Array.prototype||a==Object.prototype)return a;a[b]=c.value;return a};var ea=function(a){a=["object"==typeof globalThis&&globalThis,a,"object"==typeof window&&window];for(var b=0;b<a.length;++b){var c=a[b];if(c&&c.Math==Math)return c}throw Error("a");};';

/** The runtime: the chunk repeated to the container's size, as bytes made once and sliced. */
let runtimeBytes = Buffer.alloc(0);
function runtime(sizeKb: number): Buffer {
	const repeats = Math.max(1, Math.ceil((sizeKb * 1024) / RUNTIME_CHUNK.length));
	if (runtimeBytes.length < repeats * RUNTIME_CHUNK.length)
		runtimeBytes = Buffer.from(RUNTIME_CHUNK.repeat(repeats));
	return runtimeBytes.subarray(0, repeats * RUNTIME_CHUNK.length);
}

function wrap(data: Record<string, Json>, sizeKb: number): Buffer {
	return new ByteWriter()
		.text(
			`\n// Copyright 2012 Google Inc. All rights reserved.\n(function(){\n\nvar data = ${JSON.stringify(data)};\nvar productSettings = {"cookiePrefix":"_gcl"};\n`,
		)
		.bytes(runtime(sizeKb))
		.text('\n})()\n')
		.finish();
}

export function renderGtmContainer(profile: ContainerProfile): Buffer {
	const rng = new Rng(`render:${profile.id}`);
	const macros: Json[] = [{ function: '__e' }, { function: '__u', vtp_component: 'URL' }];
	const tags: Json[] = [];
	const permissions: Record<string, Json> = {};
	const constant = (value: string) => {
		macros.push({ function: '__c', vtp_value: value });
		return ['macro', macros.length - 1];
	};
	const tag = (t: Record<string, Json>) =>
		tags.push({ ...t, tag_id: tags.length + 1, once_per_event: true });

	if (profile.meta) {
		const { how, id } = profile.meta;
		if (how === 'community-template') {
			const fn = `__cvt_${rng.int(10000000, 99999999)}_${rng.int(10, 99)}`;
			tag({
				function: fn,
				vtp_pixelId: constant(id),
				vtp_eventName: 'standard',
				vtp_standardEventName: 'PageView',
				vtp_consent: true,
			});
			permissions[fn] = {
				access_globals: {
					keys: [
						{ key: 'fbq', read: true, write: true, execute: true },
						{ key: '_fbq_gtm', read: true, write: true },
					],
				},
				inject_script: { urls: ['https://connect.facebook.net/*'] },
				logging: { environments: 'debug' },
			};
		} else if (how === 'custom-html') {
			const html = `<script>!function(b,e,f,g,a,c,d){b.fbq||(a=b.fbq=function(){a.callMethod?a.callMethod.apply(a,arguments):a.queue.push(arguments)},b._fbq||(b._fbq=a),a.push=a,a.loaded=!0,a.version="2.0",a.queue=[],c=e.createElement(f),c.async=!0,c.src=g,d=e.getElementsByTagName(f)[0],d.parentNode.insertBefore(c,d))}(window,document,"script","https://connect.facebook.net/en_US/fbevents.js");fbq("init","${id}");fbq("track","PageView");</script>`;
			tag({
				function: '__html',
				vtp_html: escapeHtml(html),
				vtp_supportDocumentWrite: false,
				vtp_enableIframeMode: false,
			});
		} else {
			tag({
				function: '__img',
				vtp_useCacheBuster: true,
				vtp_url: [
					'template',
					'https://www.facebook.com/tr?id=',
					constant(id),
					'&ev=PageView&noscript=1',
				],
				vtp_cacheBusterQueryParam: 'gtmcb',
			});
		}
	}
	if (profile.pausedMeta) {
		tag({
			function: '__paused',
			vtp_originalTagType: 'html',
			vtp_html: escapeHtml(`<script>fbq("init","${profile.pausedMeta}");</script>`),
		});
	}
	if (profile.tiktok) {
		const { how, id } = profile.tiktok;
		if (how === 'community-template') {
			const fn = `__cvt_${rng.int(10000000, 99999999)}_${rng.int(10, 99)}`;
			tag({ function: fn, vtp_pixel_code: id, vtp_event: 'Pageview' });
			permissions[fn] = {
				access_globals: {
					keys: [
						{ key: 'ttq', read: true, write: true, execute: false },
						{ key: 'TiktokAnalyticsObject', read: true, write: true },
					],
				},
				inject_script: { urls: ['https://analytics.tiktok.com/i18n/pixel/events.js*'] },
			};
		} else {
			const html = `<script>!function(d,e,c){d.TiktokAnalyticsObject=c;var a=d[c]=d[c]||[];a.methods="page track identify".split(" ");a.load=function(b,f){var h="https://analytics.tiktok.com/i18n/pixel/events.js";a._i=a._i||{};a._i[b]=[];f=e.createElement("script");f.type="text/javascript";f.async=!0;f.src=h+"?sdkid\\x3d"+b+"\\x26lib\\x3d"+c;b=e.getElementsByTagName("script")[0];b.parentNode.insertBefore(f,b)};a.load("${id}");a.page()}(window,document,"ttq");</script>`;
			tag({ function: '__html', vtp_html: escapeHtml(html), vtp_supportDocumentWrite: false });
		}
	}
	if (profile.ga) {
		const { how, id } = profile.ga;
		switch (how) {
			case 'google-tag':
			case 'google-tag-follow':
				tag({
					function: '__googtag',
					vtp_tagId: constant(id),
					vtp_configSettingsTable: [
						'list',
						['map', 'parameter', 'send_page_view', 'parameterValue', 'true'],
					],
				});
				break;
			case 'ga4-config':
				tag({
					function: '__gaawc',
					vtp_sendPageView: true,
					vtp_measurementId: id,
					vtp_enableSendToServerContainer: false,
				});
				tag({ function: '__gaawe', vtp_eventName: 'generate_lead', vtp_measurementIdOverride: id });
				break;
			case 'ua-settings-macro': {
				macros.push({
					function: '__gas',
					vtp_cookieDomain: 'auto',
					vtp_doubleClick: false,
					vtp_trackingId: id,
					vtp_useDebugVersion: false,
				});
				tag({
					function: '__ua',
					vtp_overrideGaSettings: false,
					vtp_trackType: 'TRACK_PAGEVIEW',
					vtp_gaSettings: ['macro', macros.length - 1],
				});
				break;
			}
			case 'zone':
				tag({
					function: '__zone',
					vtp_childContainers: ['list', ['map', 'publicId', id]],
					vtp_enableConfiguration: false,
				});
				break;
		}
	}
	if (profile.adsTag) tag({ function: '__googtag', vtp_tagId: profile.adsTag });
	const data = {
		resource: {
			version: String(rng.int(3, 240)),
			macros,
			tags,
			predicates: [{ function: '_eq', arg0: ['macro', 0], arg1: 'gtm.js' }],
			rules: [
				[
					['if', 0],
					['add', ...tags.map((_, i) => i)],
				],
			],
		},
		runtime: [[50, '__cvt_template', [46, 'a'], [52, 'b', [2, [15, 'a'], 'pixelId', [7]]]]],
		permissions,
		security_groups: {
			google: ['__e', '__u', '__c', '__googtag', '__gaawc', '__gaawe', '__ua', '__gas'],
			nonGoogleScripts: ['__html'],
		},
	};
	return wrap(data, profile.sizeKb);
}

/** gtag/js?id=...: a Google tag names its GA4 destination; an ads tag names none. */
export function renderGoogleTag(id: string): Buffer {
	const destination = googleTagDestination(id);
	const tags: Json[] = [{ function: '__googtag', vtp_tagId: id, tag_id: 1 }];
	if (destination)
		tags.push({ function: '__ogt_1p_data_v2', vtp_instanceDestinationId: destination, tag_id: 2 });
	return wrap(
		{
			resource: { version: '1', macros: [{ function: '__e' }], tags, predicates: [], rules: [] },
			runtime: [],
			permissions: {},
		},
		40,
	);
}
