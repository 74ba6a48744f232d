// Runs before `npm test`: the tests use real programs from Debian's packages (Dovecot as the IMAP
// server, openssl for the test CA, Chromium for the docs page). Without them the run would fail
// late and confusingly, so it stops at once with one line saying what to install.
'use strict';
const { execFileSync } = require('node:child_process');
const { existsSync } = require('node:fs');

const onPath = (command) => {
	try {
		execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
		return true;
	} catch {
		return false;
	}
};

const needed = [
	['dovecot-imapd', onPath('dovecot')],
	['openssl', onPath('openssl')],
	['chromium', existsSync(process.env.CHROMIUM_PATH || '/usr/bin/chromium')],
];
if (!onPath('dovecot') && existsSync('/usr/sbin/dovecot')) {
	process.stderr.write(
		'npm test runs Dovecot from the PATH: add /usr/sbin to PATH (export PATH="$PATH:/usr/sbin").\n',
	);
	process.exit(1);
}
const missing = needed.filter(([, present]) => !present).map(([pkg]) => pkg);
if (missing.length > 0) {
	process.stderr.write(
		`npm test needs Debian packages that are missing: ${missing.join(', ')}. Install them with: sudo apt-get install -y --no-install-recommends ${missing.join(' ')} (or run bash .ci/run, which does).\n`,
	);
	process.exit(1);
}
