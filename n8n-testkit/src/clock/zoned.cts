/** Instants as a workflow's zone shows them: for a run's clock in reports (UTC beside local). */

/** The parts of an instant's wall time in a zone, and its offset from UTC ("+01:00"). */
function wall(ms: number, zone: string): Record<string, string> {
	const parts: Record<string, string> = Object.fromEntries(
		new Intl.DateTimeFormat('en-US', {
			timeZone: zone,
			hourCycle: 'h23',
			weekday: 'short',
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
			second: '2-digit',
			timeZoneName: 'longOffset',
		})
			.formatToParts(new Date(ms))
			.map((p) => [p.type, p.value]),
	);
	const offset = parts.timeZoneName.replace('GMT', '') || '+00:00';
	return { ...parts, offset };
}

/** ISO 8601 in the zone's wall time with its offset: 2027-03-29T09:00:00.000+02:00. */
export function localIso(ms: number, zone: string): string {
	const p = wall(ms, zone);
	const millis = String(new Date(ms).getUTCMilliseconds()).padStart(3, '0');
	return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}.${millis}${p.offset === '+00:00' ? 'Z' : p.offset}`;
}

/** For people: Mon 2027-03-29 09:00:00 +02:00. */
export function readable(ms: number, zone: string): string {
	const p = wall(ms, zone);
	return `${p.weekday} ${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second} ${p.offset === '+00:00' ? 'UTC' : p.offset}`;
}
