/*
 * n8n's REST API as its editor calls it (the e2e suite's apps, the compose stacks' containers):
 * the workflow test runner's own calls (n8n-testkit/src/n8n/rest.cts), one place for both.
 */
export {
	n8nReady,
	type Owner,
	type Rest,
	setupOwner,
	signInOwner,
} from '../../n8n-testkit/src/n8n/rest.cjs';
