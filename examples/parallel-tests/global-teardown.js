// Stops the suite's server (SIGTERM: it finishes what is in flight) and waits until it is gone.
module.exports = async () => {
	const { server, exited } = globalThis.mockServer ?? {};
	if (!server || server.exitCode !== null) return;
	server.kill('SIGTERM');
	await exited;
};
