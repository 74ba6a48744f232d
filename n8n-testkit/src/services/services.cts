/**
 * The services of a run: the ones the caller gives (`lead-inbox-mock-server test` gives its own),
 * those named with --service, and those the project has installed (a package whose package.json
 * has "n8n-testkit": { "service": "<module>" }). The file format is the runner's with theirs
 * composed in; a node is run for real against the service that claims it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { testFileSchemaFor } from '../file/schema.cjs';
import type { ServiceNode, WorkflowTestService } from './service.cjs';

export class Services {
	private schema?: ReturnType<typeof testFileSchemaFor>;

	constructor(readonly list: readonly WorkflowTestService[] = []) {
		const names = list.map((s) => s.name);
		const twice = names.find((name, i) => names.indexOf(name) !== i);
		if (twice) throw new Error(`the service ${twice} is given twice`);
	}

	/** The service a node of this type runs against, if one claims it. */
	of(type: string): WorkflowTestService | undefined {
		return this.list.find((s) => s.claims(type));
	}

	claims(type: string): boolean {
		return this.of(type) !== undefined;
	}

	/** Whether the node is a polling trigger of a service (a run is one poll). */
	polls(type: string): boolean {
		return this.of(type)?.polls?.(type) ?? false;
	}

	/** The test file's format with every service's fields (built once). */
	fileSchema(): ReturnType<typeof testFileSchemaFor> {
		this.schema ??= testFileSchemaFor(this.list.flatMap((s) => (s.schema ? [s.schema] : [])));
		return this.schema;
	}

	/** The services a file uses: one claims a node of its workflows, or the file uses its fields. */
	usedBy(spec: Record<string, unknown>, nodes: ServiceNode[]): WorkflowTestService[] {
		const cases = (spec.cases ?? []) as Record<string, unknown>[];
		return this.list.filter(
			(service) =>
				nodes.some((n) => !n.disabled && service.claims(n.type)) ||
				Object.keys(service.schema?.file ?? {}).some((key) => spec[key] !== undefined) ||
				Object.keys(service.schema?.case ?? {}).some((key) =>
					cases.some((c) => c[key] !== undefined),
				),
		);
	}

	async close(): Promise<void> {
		await Promise.all(this.list.map(async (s) => await s.close?.()));
	}
}

/** What a service module exports: a function making the service (once per run). */
interface ServiceModule {
	workflowTestService?: () => WorkflowTestService;
}

/** A service from a module: a path (relative to cwd) or a package's module, resolved from cwd. */
export function loadService(module: string, cwd: string): WorkflowTestService {
	const from = createRequire(join(cwd, 'package.json'));
	const path = module.startsWith('.') || module.startsWith('/') ? resolve(cwd, module) : module;
	let loaded: ServiceModule;
	try {
		loaded = from(from.resolve(path)) as ServiceModule;
	} catch (error) {
		throw new Error(
			`the service module ${module} could not be loaded: ${(error as Error).message.split('\n')[0]}`,
		);
	}
	if (typeof loaded.workflowTestService !== 'function')
		throw new Error(
			`${module} is no workflow test service: it must export workflowTestService(), a function returning the service (docs/services.md)`,
		);
	return loaded.workflowTestService();
}

/**
 * The services the project installed: its dependencies whose package.json names one
 * ("n8n-testkit": { "service": "./dist/..." }), in the order package.json lists them.
 */
export function installedServices(cwd: string): string[] {
	let manifest: Record<string, Record<string, string> | undefined>;
	try {
		manifest = JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8')) as typeof manifest;
	} catch {
		return [];
	}
	const from = createRequire(join(cwd, 'package.json'));
	const names = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies });
	return names.flatMap((name) => {
		let own: { 'n8n-testkit'?: { service?: string } };
		try {
			own = JSON.parse(readFileSync(from.resolve(`${name}/package.json`), 'utf8')) as typeof own;
		} catch {
			return [];
		}
		const service = own['n8n-testkit']?.service;
		return typeof service === 'string' ? [`${name}/${service.replace(/^\.\//, '')}`] : [];
	});
}
