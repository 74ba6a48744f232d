import { createServer, type Server } from 'node:net';
import { ComposeStack } from './stack.cjs';

/*
 * A bad setting in compose.yaml's variables stops `up` with an error that names it, and leaves no
 * n8n container starting over and over. Each case is a first `up` in a new clone: no n8n image of
 * the stack's tag yet. (Docker Compose stops at a failed build; podman-compose 1.0.3 goes on to
 * start the other services, and would start n8n from an older image of the same tag.)
 */

describe('compose.yaml with a bad setting', () => {
	let stack: ComposeStack | undefined;
	afterEach(async () => {
		await stack?.remove();
		stack = undefined;
	});

	/** The lines a user reads in `up`'s output about what failed (printed for the record). */
	const report = (name: string, output: string, pattern: RegExp) =>
		console.log(
			`${name}:\n${output
				.split('\n')
				.filter((l) => pattern.test(l))
				.slice(0, 8)
				.join('\n')}`,
		);

	/** The n8n container never ran, or is not running: no restart loop. */
	const expectN8nNotRunning = async (stack: ComposeStack) => {
		expect(['', 'created', 'configured', 'exited']).toContain(
			await stack.state(stack.container('n8n')),
		);
	};

	it('an N8N_VERSION n8n never published: the build names the image it could not get', async () => {
		stack = await ComposeStack.create('compose.yaml', { N8N_VERSION: '0.0.0-not-a-version' });
		await stack.untagN8nImage();
		const { output } = await stack.compose('up', '-d', '--build');
		expect(output).toContain('docker.n8n.io/n8nio/n8n:0.0.0-not-a-version');
		report(
			'N8N_VERSION=0.0.0-not-a-version',
			output,
			/^Error|0\.0\.0-not-a-version.*(error|fail)/i,
		);
		await expectN8nNotRunning(stack);
	});

	it('a LEAD_INBOX_NODES that npm cannot install: the build says which and what to set', async () => {
		stack = await ComposeStack.create('compose.yaml', {
			LEAD_INBOX_NODES: 'n8n-nodes-lead-inbox@999.0.0',
		});
		await stack.untagN8nImage();
		const { output } = await stack.compose('up', '-d', '--build');
		expect(output).toContain(
			'LEAD_INBOX_NODES=n8n-nodes-lead-inbox@999.0.0 cannot be fetched from the npm registry',
		);
		expect(output).toContain('set LEAD_INBOX_NODES=checkout (the default)');
		// npm's own reason above it: no such package (not yet published), or no such version.
		expect(output).toMatch(/^npm error code (E404|ETARGET)$/m);
		report(
			'LEAD_INBOX_NODES=n8n-nodes-lead-inbox@999.0.0',
			output,
			/^(npm error|LEAD_INBOX_NODES=)/,
		);
		await expectN8nNotRunning(stack);
	});

	it('an N8N_PORT another program listens on: the start names the port, n8n does not loop', async () => {
		stack = await ComposeStack.create('compose.yaml');
		// Another program on n8n's host port.
		const taken: Server = createServer();
		await new Promise<void>((resolve) => taken.listen(stack!.ports.n8n, '127.0.0.1', resolve));
		try {
			const { output } = await stack.compose('up', '-d');
			expect(output).toMatch(
				new RegExp(`127\\.0\\.0\\.1:${stack.ports.n8n}.*address already in use`),
			);
			report(`N8N_PORT=${stack.ports.n8n} taken`, output, /address already in use/);
			await expectN8nNotRunning(stack);
			// The server beside it started as usual: only the service on the taken port is stopped.
			await stack.healthy(stack.container('mock-server'));
		} finally {
			taken.close();
		}
	});
});
