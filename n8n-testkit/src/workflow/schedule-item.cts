/**
 * The item a Schedule Trigger hands on when it fires (its fields and their wording), for a run
 * the runner starts in its place. Its time is this machine's clock: n8n's clock, which the
 * server's advanceClock does not move.
 */
export function scheduleItem(now: Date, timeZone = 'UTC'): Record<string, string> {
	const part = (options: Intl.DateTimeFormatOptions) =>
		new Intl.DateTimeFormat('en-US', { timeZone, ...options }).format(now);
	const day = Number(part({ day: 'numeric' }));
	const suffix =
		day % 10 === 1 && day !== 11
			? 'st'
			: day % 10 === 2 && day !== 12
				? 'nd'
				: day % 10 === 3 && day !== 13
					? 'rd'
					: 'th';
	const time = part({
		hour: 'numeric',
		minute: '2-digit',
		second: '2-digit',
		hour12: true,
	}).toLowerCase();
	const offset =
		part({ timeZoneName: 'longOffset' }).split(' ').pop()!.replace('GMT', 'UTC') || 'UTC';
	return {
		timestamp: now.toISOString(),
		'Readable date': `${part({ month: 'long' })} ${day}${suffix} ${part({ year: 'numeric' })}, ${time}`,
		'Readable time': time,
		'Day of week': part({ weekday: 'long' }),
		Year: part({ year: 'numeric' }),
		Month: part({ month: 'long' }),
		'Day of month': String(day).padStart(2, '0'),
		Hour: part({ hour: '2-digit', hour12: false }).padStart(2, '0'),
		Minute: part({ minute: '2-digit' }).padStart(2, '0'),
		Second: part({ second: '2-digit' }).padStart(2, '0'),
		Timezone: `${timeZone} (${offset === 'UTC' ? 'UTC+00:00' : offset})`,
	};
}
