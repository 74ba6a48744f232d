import type { Service } from './service.cjs';

/**
 * Google's token endpoint, which n8n's Google OAuth2 credentials call to refresh an access token
 * after a 401: part of every Google service's answers.
 */
export const googleOAuth2: Service = {
	name: 'google-oauth2',
	title: 'Google OAuth 2.0 token endpoint',
	operations: {
		refreshToken: {
			title: 'a new access token for the refresh token',
			docs: 'https://developers.google.com/identity/protocols/oauth2/web-server#offline',
			request: { method: 'POST', url: 'https://oauth2.googleapis.com/token' },
			answer: {
				json: {
					access_token: 'test-refreshed-access-token-{{seq}}',
					expires_in: 3599,
					scope: 'https://www.googleapis.com/auth/gmail.modify',
					token_type: 'Bearer',
				},
			},
		},
	},
};
