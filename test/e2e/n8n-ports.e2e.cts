import { createServer, type Server } from 'node:http';
import { N8nApp, type N8nAppOptions } from '../../n8n-testkit/src/n8n/app.cjs';
import { freePort } from '../helpers/ports.cjs';
import { CACHE, installOf, NEWEST_LINE } from './n8n-app.cjs';
import { processFolder } from './process-folders.cjs';

/**
 * A bound, not a speed claim: up to three n8n starts, each of which a CI machine busy with the
 * other suites' n8n processes can take a minute over (cold .ci/run: over 120 s for the first test).
 */
const STARTS_MS = 5 * 60_000;

/**
 * A port found free can be taken before n8n binds it (the kernel hands the same range to outgoing
 * connections, and other programs look for free ports too): n8n then exits as it starts. The
 * workflow test runner's n8n chooses other ports and starts again, so a busy CI machine does not
 * fail a test file's cases for it (it did: "n8n Task Broker's port 40713 is already in use").
 * Here the ports are taken on purpose: the task broker's first, then the main one.
 */
describe(`n8n ${NEWEST_LINE.version} given a port another program holds`, () => {
	const held: Server[] = [];
	const apps: N8nApp[] = [];
	const hold = async (): Promise<number> => {
		const port = await freePort();
		const server = createServer();
		await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
		held.push(server);
		return port;
	};
	const appOf = (options: {
		port: number;
		brokerPort: number;
		freePorts?: N8nAppOptions['freePorts'];
	}) => {
		const app = new N8nApp(installOf(NEWEST_LINE), {
			dir: processFolder(CACHE, `ports-${apps.length}`),
			...options,
		});
		apps.push(app);
		return app;
	};
	afterAll(async () => {
		await Promise.all(apps.map((app) => app.stop()));
		for (const server of held) server.close();
	});

	test(
		'starts on the ports it chooses again, and answers there',
		async () => {
			const takenMain = await hold();
			const takenBroker = await hold();
			const chosen: Array<{ port: number; brokerPort: number }> = [];
			const app = appOf({
				port: await freePort(),
				brokerPort: takenBroker,
				freePorts: async () => {
					// Again a taken one the first time (n8n's own port), free ones the second.
					const ports = chosen.length
						? { port: await freePort(), brokerPort: await freePort() }
						: { port: takenMain, brokerPort: await freePort() };
					chosen.push(ports);
					return ports;
				},
			});
			await app.start();
			expect(chosen).toHaveLength(2);
			expect(app.port).toBe(chosen[1].port);
			const health = await fetch(`${app.url}/healthz`);
			expect(health.status).toBe(200);
		},
		STARTS_MS,
	);

	test(
		'without a way to choose again, fails naming the port',
		async () => {
			const taken = await hold();
			const app = appOf({ port: await freePort(), brokerPort: taken });
			await expect(app.start()).rejects.toThrow(`port ${taken} is already in use`);
		},
		STARTS_MS,
	);
});
