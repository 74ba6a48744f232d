import { EventEmitter } from 'node:events';
import { firstMessage, type Helper } from '../../mock-server/src/core/helpers.cjs';

/**
 * Starting a helper process (scanner, synthetic web): the server waits for its first message, and
 * never for ever. A helper that exits, or that sends nothing (it lost its channel to the server),
 * fails the start with a clear error, and one that sends nothing is ended.
 */
class FakeHelper extends EventEmitter implements Helper {
	terminated = 0;
	postMessage(): void {}
	unref(): void {}
	ref(): void {}
	async terminate(): Promise<void> {
		this.terminated++;
	}
}

describe('waiting for a helper to start', () => {
	it('resolves with its first message', async () => {
		const helper = new FakeHelper();
		const started = firstMessage<{ port: number }>(helper, 60_000);
		helper.emit('message', { port: 4321 });
		await expect(started).resolves.toEqual({ port: 4321 });
		expect(helper.terminated).toBe(0);
	});

	it('fails when the helper exits before it says anything', async () => {
		const helper = new FakeHelper();
		const started = firstMessage(helper, 60_000);
		helper.emit('exit', 1);
		await expect(started).rejects.toThrow('helper process exited with 1');
	});

	it('fails, and ends the helper, when it says nothing within the time given', async () => {
		const helper = new FakeHelper();
		await expect(firstMessage(helper, 50)).rejects.toThrow(
			'the helper process sent nothing within 0.05 s of its start',
		);
		expect(helper.terminated).toBe(1);
	});
});
