import { z } from 'zod';
import { trimmedText } from './common.cjs';

const filter = (what: string) =>
	z
		.boolean()
		.optional()
		.meta({
			description: `true: only businesses whose website has ${what}. false: only businesses whose website was scanned in full and found without one (businesses without a scannable website, or whose scan could not read a tag-manager container that could hold it, are excluded: their flag is null). Omitted or null: no restriction.`,
		});

export const leadSearchRequest = z
	.strictObject({
		niche: trimmedText(200).meta({
			description: 'Business niche, e.g. "dentist" or "roofing contractor".',
			example: 'dentist',
		}),
		city: trimmedText(200).meta({
			description:
				'City: "Austin", "Austin, TX", "Austin, US", "München". Case and accents are ignored; ambiguous names resolve to the most populous match.',
			example: 'Austin, TX',
		}),
		count: z.int().min(1).max(1000).default(100).meta({
			description:
				'Number of leads to fetch (1 to 1000). The full count is reserved from the credits up front.',
		}),
		metaAds: filter('an ad-platform (Meta) pixel'),
		tiktokPixel: filter('a short-video-platform (TikTok) pixel'),
		gAnalytics: filter('a web-analytics (Google Analytics) tracker'),
	})
	.meta({
		id: 'LeadSearchRequest',
		example: { niche: 'dentist', city: 'Austin, TX', count: 25, metaAds: true },
	});

export type LeadSearchRequest = z.output<typeof leadSearchRequest>;

const urlOrNull = z.string().nullable();

/** One of the three scan flags, with the rule for false and null (docs/api.md, "The scan flags"). */
const scanFlag = (what: string) =>
	z
		.boolean()
		.nullable()
		.meta({
			description: `true: ${what} was found on the website (its page or a tag-manager container it loads). false: the page and every container it loads were read, and it is in none of them. null: not known: no website, the website could not be scanned, or a container it loads could not be read (timed out, failed, over its size cap) and the code was not found elsewhere.`,
		});

export const contact = z
	.object({
		businessName: z.string(),
		address: z.string().nullable(),
		website: urlOrNull,
		email: z.string().nullable().meta({ description: 'emails[0]' }),
		emails: z.array(z.string()),
		phone: z.string().nullable().meta({ description: 'phone_numbers[0], E.164' }),
		phone_numbers: z.array(z.string()),
		instagram: urlOrNull,
		facebook: urlOrNull,
		linkedin: urlOrNull,
		tiktok: urlOrNull,
		fbPixel: scanFlag('A Meta pixel'),
		tikTokPixel: scanFlag('A TikTok pixel'),
		gAnalytics: scanFlag('Google Analytics'),
		googleBusinessCategories: z.array(z.string()),
	})
	.meta({ id: 'Contact' });

export type Contact = z.output<typeof contact>;

export const leadSearchResponse = z
	.object({
		contacts: z.array(contact),
		chargedCredits: z.int().meta({ description: 'Credits charged: the number of contacts added.' }),
	})
	.meta({
		id: 'LeadSearchResponse',
		example: {
			contacts: [
				{
					businessName: 'Bright Smile Dental',
					address: '1412 Oak Street, Austin, TX 78701',
					website: 'http://bright-smile-dental-7kq2.test/',
					email: 'info@bright-smile-dental-7kq2.test',
					emails: ['info@bright-smile-dental-7kq2.test'],
					phone: '+15125550143',
					phone_numbers: ['+15125550143'],
					instagram: null,
					facebook: 'https://www.facebook.com/brightsmiledental7kq2',
					linkedin: null,
					tiktok: null,
					fbPixel: true,
					tikTokPixel: false,
					gAnalytics: true,
					googleBusinessCategories: ['Dentist', 'Cosmetic dentist'],
				},
			],
			chargedCredits: 1,
		},
	});
