// The validator is ESM-only and jest runs CommonJS, so the test runs this in a child process:
// reads an OpenAPI document on stdin, prints {"valid", "errors"} as JSON.
import { Validator } from '@seriousme/openapi-schema-validator';

let input = '';
for await (const chunk of process.stdin) input += chunk;
const validator = new Validator();
const result = await validator.validate(JSON.parse(input));
process.stdout.write(
	JSON.stringify({
		valid: result.valid,
		version: validator.version,
		errors: result.errors ?? null,
	}),
);
