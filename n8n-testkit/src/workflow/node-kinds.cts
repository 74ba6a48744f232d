/**
 * Which nodes a test may run for real: n8n's nodes that work inside n8n, and those a service of
 * the run claims (services/: they reach its simulator). Every other node (HubSpot, Slack, HTTP
 * Request, an AI model) would call another service: a test stubs it or answers its requests with
 * mocks, so that it can never charge or create on a real one. An allow-list, not a block-list: a
 * node the list does not know is treated as outside.
 */

/** n8n-nodes-base nodes that read and write only inside n8n (and its user folder). */
const INSIDE_N8N = new Set(
	[
		'aggregate',
		'code',
		'compareDatasets',
		'convertToFile',
		'crypto',
		'dataTable',
		'dateTime',
		'debugHelper',
		'editImage',
		// Runs a sub-workflow of the same n8n (the runner creates it from the user's export).
		'executeWorkflow',
		'executeWorkflowTrigger',
		'executionData',
		// Its form is served by n8n; a test submits it (a case's request).
		'formTrigger',
		'extractFromFile',
		'filter',
		// A form page n8n serves while the execution waits; a test submits it (a run's resume).
		'form',
		'function',
		'functionItem',
		'html',
		'if',
		'itemLists',
		'limit',
		'manualTrigger',
		'markdown',
		'merge',
		'moveBinaryData',
		'noOp',
		'readBinaryFile',
		'readBinaryFiles',
		'readWriteFile',
		'removeDuplicates',
		'renameKeys',
		// Answers the Webhook's caller; calls nobody.
		'respondToWebhook',
		'scheduleTrigger',
		'set',
		'sort',
		'splitInBatches',
		'splitOut',
		'start',
		'stickyNote',
		'stopAndError',
		'summarize',
		'switch',
		'wait',
		'writeBinaryFile',
		'xml',
		'cron',
		'interval',
		'errorTrigger',
	].map((name) => `n8n-nodes-base.${name}`),
);

/**
 * n8n's AI nodes that run inside n8n: the agent and chains (their model is a sub-node: a test
 * scripts it), n8n's own memory, tools that compute, output parsers, the chat triggers.
 */
const INSIDE_N8N_AI = new Set(
	[
		'agent',
		'chainLlm',
		'chainSummarization',
		'informationExtractor',
		'textClassifier',
		'sentimentAnalysis',
		'memoryBufferWindow',
		'toolCode',
		'toolCalculator',
		'toolThink',
		// Calls a sub-workflow of the same n8n, as Execute Workflow does.
		'toolWorkflow',
		'outputParserStructured',
		'outputParserItemList',
		'outputParserAutofixing',
		'chatTrigger',
		'manualChatTrigger',
	].map((name) => `@n8n/n8n-nodes-langchain.${name}`),
);

/** A chat (or completion) model sub-node: OpenAI, Anthropic, Gemini, Ollama, Mistral, Groq... */
export const isChatModel = (type: string): boolean => /^@n8n\/n8n-nodes-langchain\.lm/i.test(type);

/** Node types that start a workflow. */
export function isTrigger(type: string): boolean {
	return (
		/Trigger$/.test(type) ||
		[
			'n8n-nodes-base.cron',
			'n8n-nodes-base.interval',
			'n8n-nodes-base.start',
			'n8n-nodes-base.webhook',
		].includes(type)
	);
}

/** Schedule-like triggers: a test run starts as if they fired. */
export function isSchedule(type: string): boolean {
	return [
		'n8n-nodes-base.scheduleTrigger',
		'n8n-nodes-base.cron',
		'n8n-nodes-base.interval',
	].includes(type);
}

/** n8n's Webhook: a test may call it for real (a case's request). */
export const WEBHOOK = 'n8n-nodes-base.webhook';

/** n8n's Form Trigger: a test may submit its form for real (a case's request with `form`). */
export const FORM_TRIGGER = 'n8n-nodes-base.formTrigger';

/** Start nodes a case's request calls for real. */
export const takesRequests = (type: string): boolean => type === WEBHOOK || type === FORM_TRIGGER;

export const WAIT = 'n8n-nodes-base.wait';

/** n8n's HTTP Request node: its URL, when written out, is known before it runs. */
export const HTTP_REQUEST = 'n8n-nodes-base.httpRequest';

/** The request an HTTP Request node sends, where its URL is written out (not an expression). */
export function writtenRequest(node: {
	type: string;
	parameters?: Record<string, unknown>;
}): { method: string; url: string; parsed: URL } | undefined {
	const url = node.parameters?.url;
	if (node.type !== HTTP_REQUEST || typeof url !== 'string' || url.startsWith('='))
		return undefined;
	if (!URL.canParse(url)) return undefined;
	const method = node.parameters?.method;
	return {
		method: (typeof method === 'string' ? method : 'GET').toUpperCase(),
		url,
		parsed: new URL(url),
	};
}

interface NodeLike {
	type: string;
	parameters?: Record<string, unknown>;
}

/** A Wait on time alone (After Time Interval, At Specified Time): the runner moves the clock past it. */
export const waitsOnTime = (node: NodeLike): boolean =>
	node.type === WAIT &&
	[undefined, 'timeInterval', 'specificTime'].includes(node.parameters?.resume as string);

/** A node that parks its execution until a request comes: a run's resume sends it. */
export const waitsForRequest = (node: NodeLike): boolean =>
	(node.type === WAIT && ['webhook', 'form'].includes(String(node.parameters?.resume))) ||
	node.type === 'n8n-nodes-base.form' ||
	node.parameters?.operation === 'sendAndWait';

/**
 * A node waiting for a request that gives up after a time (Limit Wait Time: a Wait's or a Form's
 * parameter, a send-and-wait's option): n8n resumes it by itself at the limit, with no request.
 */
export const hasTimeLimit = (node: NodeLike): boolean =>
	waitsForRequest(node) &&
	(node.parameters?.limitWaitTime === true ||
		(node.parameters?.options as Record<string, unknown> | undefined)?.limitWaitTime !== undefined);

/** Whether a waiting node is resumed on n8n's form URL (/form-waiting/) rather than its webhook one. */
export const resumesOnForm = (node: NodeLike): boolean =>
	node.type === 'n8n-nodes-base.form' || (node.type === WAIT && node.parameters?.resume === 'form');

/** A Wait resumed by a request to its webhook (not a form, not a send-and-wait's own links). */
export const resumesOnWebhook = (node: NodeLike): boolean =>
	node.type === WAIT && node.parameters?.resume === 'webhook';

/** The HTTP method a Wait on a webhook listens for (its HTTP Method; n8n's default GET). */
export const resumeMethod = (node: NodeLike): string =>
	typeof node.parameters?.httpMethod === 'string' && node.parameters.httpMethod
		? node.parameters.httpMethod
		: 'GET';

/** Whether a node asks no service but those of the run (`claimed`: a service runs it). */
export function staysInside(type: string, claimed: Claimed = () => false): boolean {
	return claimed(type) || INSIDE_N8N.has(type) || INSIDE_N8N_AI.has(type);
}

/** Whether a service of the run claims a node type (Services.claims). */
export type Claimed = (type: string) => boolean;

/**
 * Nodes of other services that speak another protocol than HTTP (databases, SMTP, IMAP, FTP,
 * SSH, message brokers) or run a command here: the runner's mocks cannot answer them, so a test
 * must stub them.
 */
const NOT_HTTP = new Set(
	[
		'postgres',
		'mySql',
		'microsoftSql',
		'mongoDb',
		'redis',
		'emailSend',
		'emailReadImap',
		'ftp',
		'ssh',
		'rabbitmq',
		'rabbitmqTrigger',
		'kafka',
		'kafkaTrigger',
		'mqtt',
		'mqttTrigger',
		'amqp',
		'amqpTrigger',
		'crateDb',
		'questDb',
		'timescaleDb',
		'oracleDatabase',
		'snowflake',
		'executeCommand',
		'localFileTrigger',
	].map((name) => `n8n-nodes-base.${name}`),
);

/** Whether a node of another service can run for real against the test's HTTP mocks. */
export const speaksHttp = (type: string): boolean => !NOT_HTTP.has(type);

/** Whether a test must stub this node: enabled, not where runs start, and it would call out. */
export function needsStub(
	node: { name: string; type: string; disabled?: boolean; parameters?: Record<string, unknown> },
	start: string,
	claimed?: Claimed,
): boolean {
	// Execute Workflow fetching its workflow from a URL fetches it from another service.
	const fetched =
		node.type === 'n8n-nodes-base.executeWorkflow' && node.parameters?.source === 'url';
	return !node.disabled && node.name !== start && (fetched || !staysInside(node.type, claimed));
}
