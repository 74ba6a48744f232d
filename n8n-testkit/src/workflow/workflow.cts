/** An n8n workflow as exported (the part the runner reads and changes). */
export interface WorkflowNode {
	name: string;
	type: string;
	typeVersion?: number;
	parameters?: Record<string, unknown>;
	credentials?: Record<string, { id?: string; name?: string }>;
	disabled?: boolean;
	[key: string]: unknown;
}

/** A node's connections onward: per connection type (main), per output, the nodes it feeds. */
export type Connections = Record<
	string,
	({ node: string; type: string; index: number }[] | null)[]
>;

export interface Workflow {
	name?: string;
	id?: string;
	nodes: WorkflowNode[];
	connections: Record<string, Connections>;
	settings?: Record<string, unknown>;
	[key: string]: unknown;
}
