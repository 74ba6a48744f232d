import { siteProfile } from './mock-server/src/web/profiles.cjs';
import { startSyntheticWebServer } from './mock-server/src/web/routes.cjs';
(async () => {
  let host = ''; for (let i = 0; ; i++) { if (siteProfile(`s${i}.test`).behavior === 'slow') { host = `s${i}.test`; break; } }
  const { port, server } = await startSyntheticWebServer();
  const t = Date.now();
  const r = await fetch(`http://127.0.0.1:${port}/`, { headers: { host }, signal: AbortSignal.timeout(13000) }).then(r => r.status).catch(e => e.name);
  console.log('bare server', r, Date.now() - t); server.close(); process.exit(0);
})();
