import { readNotFound } from '../../nodes/FetchLeads/notFound';
import { answerOf } from '../../nodes/shared/answer';

/** How Fetch Leads reads a 404 of the lead search, from its body alone (no service, no n8n). */
const reading = (body: unknown, contentType = 'application/json') =>
	readNotFound(
		answerOf(
			{ service: 'leads', method: 'POST', url: 'http://127.0.0.1/api/v1/niche-finder-leads' },
			{
				statusCode: 404,
				headers: { 'content-type': contentType },
				body: typeof body === 'string' ? body : JSON.stringify(body),
			},
			'lik_not_in_any_body',
		),
	);

describe('reading a lead search 404', () => {
	it.each([
		[{ error: 'No businesses found for dentist in Austin', code: 'no_businesses_found' }],
		[{ error: 'Not Found', code: 'NO_RESULTS' }],
		[{ message: 'No results for this search' }],
		[{ title: 'Not Found', detail: 'Nothing found for plumber in Springfield' }],
		[{ error: 'The search for plumber in Springfield came back empty' }],
	])('nothing found: %j', (body) => expect(reading(body)).toBe('nothingFound'));

	it.each([
		['<!DOCTYPE html><html><body>Cannot POST /x</body></html>', 'text/html'],
		['404 page not found', 'text/plain'],
		[{ message: 'Route POST:/api/v1/niche-finder-leads not found', error: 'Not Found' }, undefined],
		[{ error: 'Not Found', path: '/api/v1/niche-finder-leads', status: 404 }, undefined],
		[{ message: 'no Route matched with those values' }, undefined],
		[{ error: 'No route matches [POST] "/api/v1/niche-finder-leads"' }, undefined],
	])('a wrong URL: %j', (body, type) => expect(reading(body, type)).toBe('wrongUrl'));

	it.each([
		[{ error: 'Not found' }, undefined],
		[{ message: 'Not Found' }, undefined],
		[{}, undefined],
		['', 'application/json'],
		['Not Found', 'text/plain'],
		[['not', 'an', 'object'], undefined],
	])('words that do not settle it: %j', (body, type) =>
		expect(reading(body, type)).toBe('unclear'),
	);
});
