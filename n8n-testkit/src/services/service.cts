/**
 * The interface a service simulator implements to join the runner: a workflow's nodes of that
 * service then run for real against it, instead of being stubbed. The runner opens it per test file
 * (a session: Playwright's fixture scopes, a provider per run and a session per file), resets it
 * before each case, moves its clock with the case's, applies the case's changes it owns, and asks
 * it to check the expectations it adds. docs/services.md describes it for authors.
 *
 * A service's values (its seed, its changes, its expectations) are its own: the runner hands them
 * over as parsed by the schema the service gave, and never reads them.
 */
import type { z } from 'zod';

/** What a service adds to the test file's format: zod shapes, checked with the rest at load. */
export interface ServiceSchema {
	/** Top-level fields of a test file (a seed applied before every case, say). */
	file?: Record<string, z.ZodType>;
	/** Fields of a case (the case's own seed, faults armed before its first run). */
	case?: Record<string, z.ZodType>;
	/** Changes a case may make before a run (`before:`), each an object of one field. */
	changes?: z.ZodType[];
	/** Fields of a case's `expect` (the service's state after the case). */
	expect?: Record<string, z.ZodType>;
}

/** The part of a node the runner shows a service. */
export interface ServiceNode {
	name: string;
	type: string;
	disabled?: boolean;
}

/** A test file as a service sees it when it opens. */
export interface ServiceFile {
	/** The file's path, relative to the working folder. */
	file: string;
	/** The file's fields (the service's own among them), as parsed. */
	spec: Record<string, unknown>;
	/** The nodes of the workflow and its sub-workflows. */
	nodes: ServiceNode[];
}

/** A failed expectation (a service's among them). */
export interface WorkflowTestFailure {
	/** Where in the case: expect.nodes.HubSpot.every.email */
	at: string;
	/** What was expected, what came, and the nearest item or request. */
	message: string;
}

/** What a service got in a case: its requests, one line each, and facts about its state. */
export interface WorkflowTestServiceDetail {
	requests: string[];
	/** Shown after the count of requests (`3 credit(s) charged`). */
	facts: string[];
	/** The same facts as numbers ({ creditsCharged: 3 }). */
	counts: Record<string, number>;
	/**
	 * Fields the service writes at the top of each case's `detail` in --report's JSON (the Lead
	 * Inbox service keeps `requests` and `creditsCharged` where its reports had them before it was
	 * a service); never over the runner's own.
	 */
	report?: Record<string, unknown>;
}

/** What a service got in a case (its requests, facts about its state). */
export type ServiceDetail = WorkflowTestServiceDetail;

/** A service opened for one test file. */
export interface ServiceSession {
	/** The credential n8n's nodes of the service get (made in n8n by the runner, attached per node). */
	credential?: { type: string; data: Record<string, unknown> };
	/** Puts the service back as the file has it (its seed, no faults, an empty journal): before each case. */
	reset(): Promise<void>;
	/** The case's own fields (its seed, its faults), applied before its first run. */
	beginCase(testCase: Record<string, unknown>): Promise<void>;
	/**
	 * The case's changes before its first run are made: what its expectations count from (the
	 * credits a case charged are those it had here less those it has after).
	 */
	firstRunStarts?(): Promise<void>;
	/** Applies a change if it is one of the service's (false: not its own). */
	apply(change: Record<string, unknown>): Promise<boolean>;
	/** The case's clock moved (or set): the service's time follows. */
	setClock?(ms: number): Promise<void>;
	/** Checks the service's expectations of a case (`expect` holds every field; read your own). */
	verify?(expect: Record<string, unknown>): Promise<WorkflowTestFailure[]>;
	/** What it got in the case (for --show, --report, test init and the upgrade check). */
	detail?(): Promise<ServiceDetail>;
	close(): Promise<void>;
}

/** A service simulator: one instance per run of the runner. */
export interface WorkflowTestService {
	/** Its name, as reports show it (Lead Inbox). */
	name: string;
	/** Node types it answers: they run for real against it (no stub, no mock needed). */
	claims(nodeType: string): boolean;
	/**
	 * Its polling triggers: a run starts as one poll (n8n's own schedule for it is moved to a day
	 * that never comes during a test).
	 */
	polls?(nodeType: string): boolean;
	schema?: ServiceSchema;
	/** Checks of a file beyond its schema (a key naming no account of the seed, say): path and message. */
	check?(spec: Record<string, unknown>): { path: (string | number)[]; message: string }[];
	/** Opens it for a test file whose workflow has a node it claims or that uses its fields. */
	open(file: ServiceFile): Promise<ServiceSession>;
	/** What `test init` writes for it: top-level fields, and the expectations a run's detail shows. */
	draft?: {
		file?(nodes: ServiceNode[]): Record<string, unknown>;
		expect?(detail: ServiceDetail): Record<string, unknown>;
		/** Comments written above the fields drafted (by field name: of the file, of a case's expect). */
		comments?: { file?: Record<string, string>; expect?: Record<string, string> };
	};
	/** The JSON Schema of the test file format with its fields composed in (for editors). */
	jsonSchema?: string;
	/** Ends what it keeps for the run (shared caches, helper processes). */
	close?(): Promise<void>;
}
