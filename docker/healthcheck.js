// The n8n containers' health check: the instance answers GET /healthz/readiness (its database is
// connected and migrated) on its port. Workers answer it when QUEUE_HEALTH_CHECK_ACTIVE is true,
// on QUEUE_HEALTH_CHECK_PORT.
const port = process.env.QUEUE_HEALTH_CHECK_PORT || process.env.N8N_PORT || 5678;
fetch(`http://127.0.0.1:${port}/healthz/readiness`, { signal: AbortSignal.timeout(4000) }).then(
	(res) => process.exit(res.ok ? 0 : 1),
	() => process.exit(1),
);
