import { googleOAuth2 } from './google-oauth2.cjs';
import { type Service, urlPattern } from './service.cjs';

const API = 'https://sheets.googleapis.com/v4/spreadsheets/';
const REFERENCE = 'https://developers.google.com/workspace/sheets/api/reference/rest/v4';
/** A spreadsheet ID, then the rest of the path. */
const ID = '[^/?:]+';
/** A range of a spreadsheet (read with GET, written with PUT). */
const RANGE = urlPattern(API, `${ID}/values/[^/?]+(\\?.*)?`);

/**
 * Google Sheets (n8n's Google Sheets node: append, append or update, read rows). The node first
 * finds the sheet (its title by ID), then reads the first row for the columns: the shipped sheet
 * is "Sheet1" (gid 0) with the columns name, email, phone, website, city and two rows; override
 * `google-sheets.values` with the rows of yours.
 */
export const googleSheets: Service = {
	name: 'google-sheets',
	title: 'Google Sheets API',
	nodeType: 'n8n-nodes-base.googleSheets',
	operations: {
		spreadsheet: {
			title: "the spreadsheet's sheets (the node finds the sheet by name or ID)",
			docs: `${REFERENCE}/spreadsheets/get`,
			request: { method: 'GET', url: urlPattern(API, `${ID}(\\?.*)?`) },
			answer: {
				json: {
					sheets: [
						{
							properties: {
								sheetId: 0,
								title: 'Sheet1',
								index: 0,
								sheetType: 'GRID',
								gridProperties: { rowCount: 1000, columnCount: 26 },
							},
						},
					],
				},
			},
		},
		values: {
			title: 'the rows of a range (read rows; the header row append reads)',
			docs: `${REFERENCE}/spreadsheets.values/get`,
			request: { method: 'GET', url: RANGE },
			answer: {
				json: {
					range: 'Sheet1!A1:Z1000',
					majorDimension: 'ROWS',
					values: [
						['name', 'email', 'phone', 'website', 'city'],
						[
							'Bright Smile Dental',
							'hello@brightsmile.example',
							'+1 512 555 0100',
							'https://brightsmile.example',
							'Austin',
						],
						[
							'Lakeside Dentistry',
							'front@lakeside.example',
							'+1 512 555 0101',
							'https://lakeside.example',
							'Austin',
						],
					],
				},
			},
		},
		append: {
			title: 'rows appended after the table (append; append or update for new keys)',
			docs: `${REFERENCE}/spreadsheets.values/append`,
			request: { method: 'POST', url: urlPattern(API, `${ID}/values/[^/?]+:append(\\?.*)?`) },
			answer: {
				json: {
					spreadsheetId: '{{request.segments.2}}',
					tableRange: 'Sheet1!A1:E3',
					updates: {
						spreadsheetId: '{{request.segments.2}}',
						updatedRange: 'Sheet1!A4:E4',
						updatedRows: 1,
						updatedColumns: 5,
						updatedCells: 5,
					},
				},
			},
		},
		batchUpdate: {
			title: "the sheet's grid changed (append adds the rows it needs first)",
			docs: `${REFERENCE}/spreadsheets/batchUpdate`,
			request: { method: 'POST', url: urlPattern(API, `${ID}:batchUpdate`) },
			answer: { json: { spreadsheetId: '{{request.segments.2}}', replies: [{}] } },
		},
		update: {
			title: 'a range written (append writes the rows it added)',
			docs: `${REFERENCE}/spreadsheets.values/update`,
			request: { method: 'PUT', url: RANGE },
			answer: {
				json: {
					spreadsheetId: '{{request.segments.2}}',
					updatedRange: '{{request.body.range}}',
					updatedRows: 1,
					updatedColumns: 5,
					updatedCells: 5,
				},
			},
		},
		batchUpdateValues: {
			title: 'rows updated in place (append or update for keys already there)',
			docs: `${REFERENCE}/spreadsheets.values/batchUpdate`,
			request: { method: 'POST', url: urlPattern(API, `${ID}/values:batchUpdate`) },
			answer: {
				json: {
					spreadsheetId: '{{request.segments.2}}',
					totalUpdatedRows: 1,
					totalUpdatedColumns: 5,
					totalUpdatedCells: 5,
					totalUpdatedSheets: 1,
				},
			},
		},
		...googleOAuth2.operations,
	},
};
