/**
 * `--shard i/n`: a stable share of the test files, so a CI matrix of n jobs runs every file once
 * (as Jest's and Playwright's --shard do). Files are ordered by their path from the working folder
 * and dealt out in turn: the same files always split the same way, whatever the machine.
 */
import { relative } from 'node:path';

export interface Shard {
	/** 1-based. */
	index: number;
	count: number;
}

export function parseShard(text: string): Shard {
	const match = /^(\d+)\/(\d+)$/.exec(text.trim());
	const index = Number(match?.[1]);
	const count = Number(match?.[2]);
	if (!match || count < 1 || index < 1 || index > count)
		throw new Error(
			`--shard takes i/n, this job's share of n (1 <= i <= n), e.g. 2/4; not "${text}"`,
		);
	return { index, count };
}

/** The files of one shard. */
export function shardOf(files: string[], shard: Shard, cwd: string): string[] {
	return [...files]
		.sort((a, b) => relative(cwd, a).localeCompare(relative(cwd, b)))
		.filter((_, i) => i % shard.count === shard.index - 1);
}
