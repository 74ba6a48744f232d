import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/*
 * What the OpenAPI document says of a request and of an answer, checked with the document's own
 * schemas (JSON Schema 2020-12, formats included), as an outside tester or a generated validator
 * reads them. The fuzz asks it two things of every exchange: did the server accept a request the
 * document rules out, and does the answer fit the schema the document declares for its status?
 */

type Json = Record<string, any>;
const DOC = 'https://lead-inbox.test/openapi.json';

export interface DocumentOperation {
	method: string;
	path: string;
	/** The operation object of the document. */
	op: Json;
}

/** A JSON pointer token inside a URI fragment. */
const token = (part: string) => encodeURIComponent(part.replace(/~/g, '~0').replace(/\//g, '~1'));

export class DocumentOracle {
	private readonly ajv: Ajv2020;
	private readonly compiled = new Map<string, ValidateFunction>();

	constructor(doc: Json) {
		// Not strict: the document's schemas carry OpenAPI's own words (example, description).
		this.ajv = new Ajv2020({ strict: false, allErrors: false });
		addFormats(this.ajv);
		this.ajv.addSchema(doc, DOC);
	}

	/** The validator of the schema at this place in the document. */
	private at(...pointer: string[]): ValidateFunction {
		const ref = `${DOC}#/${pointer.map(token).join('/')}`;
		let validate = this.compiled.get(ref);
		if (!validate) {
			validate = this.ajv.compile({ $ref: ref });
			this.compiled.set(ref, validate);
		}
		return validate;
	}

	private why(validate: ValidateFunction): string {
		return this.ajv.errorsText(validate.errors, { dataVar: 'value' });
	}

	/** Why the document rules the body out (undefined when it allows it). */
	bodyRuledOut({ method, path, op }: DocumentOperation, body: unknown): string | undefined {
		const requestBody = op.requestBody;
		if (!requestBody) return undefined;
		if (body === undefined) return requestBody.required ? 'the body is required' : undefined;
		const validate = this.at(
			'paths',
			path,
			method.toLowerCase(),
			'requestBody',
			'content',
			'application/json',
			'schema',
		);
		return validate(body) ? undefined : this.why(validate);
	}

	/** Why the document rules a batch entry out: against the entry's own component. */
	entryRuledOut(entry: unknown, component: string): string | undefined {
		const validate = this.at('components', 'schemas', component);
		return validate(entry) ? undefined : this.why(validate);
	}

	/**
	 * Why the document rules the query out: a required parameter missing, or a value its schema
	 * (or its JSON content's schema) refuses. Query integers arrive as text: digits only. A
	 * parameter it does not list is neither allowed nor ruled out (OpenAPI cannot say "no others"):
	 * `unlisted` says which to take it for.
	 */
	queryRuledOut(
		{ method, path, op }: DocumentOperation,
		query: Record<string, string>,
		unlisted: 'allowed' | 'ruledOut',
	): string | undefined {
		const parameters: Json[] = op.parameters ?? [];
		const listed = new Set(parameters.filter((p) => p.in === 'query').map((p) => p.name));
		const other = Object.keys(query).find((name) => !listed.has(name));
		if (other !== undefined && unlisted === 'ruledOut')
			return `${other} is not a parameter of the operation`;
		for (const [index, parameter] of parameters.entries()) {
			if (parameter.in !== 'query') continue;
			const value = query[parameter.name];
			if (value === undefined) {
				if (parameter.required) return `${parameter.name} is required`;
				continue;
			}
			const where = ['paths', path, method.toLowerCase(), 'parameters', String(index)];
			let data: unknown = value;
			let validate: ValidateFunction;
			if (parameter.content) {
				try {
					data = JSON.parse(value);
				} catch {
					return `${parameter.name} is not JSON`;
				}
				validate = this.at(...where, 'content', 'application/json', 'schema');
			} else {
				if (parameter.schema?.type === 'integer') {
					if (!/^-?\d+$/.test(value)) return `${parameter.name} is not an integer`;
					data = Number(value);
				}
				validate = this.at(...where, 'schema');
			}
			if (!validate(data)) return `${parameter.name}: ${this.why(validate)}`;
		}
		return undefined;
	}

	/** Why an answer contradicts the schema the document declares for its status and media type. */
	answerContradicts(
		{ method, path, op }: DocumentOperation,
		status: number,
		contentType: string | null,
		body: unknown,
	): string | undefined {
		const declared = op.responses?.[String(status)];
		if (!declared) return `status ${status} is not declared`;
		const media = (contentType ?? '').split(';')[0].trim();
		if (media !== 'application/json' || !declared.content?.['application/json']?.schema)
			return undefined;
		const validate = this.at(
			'paths',
			path,
			method.toLowerCase(),
			'responses',
			String(status),
			'content',
			'application/json',
			'schema',
		);
		return validate(body) ? undefined : this.why(validate);
	}
}
