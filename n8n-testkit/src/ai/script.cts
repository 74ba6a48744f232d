/**
 * A test file's model scripts, played turn by turn: each time an agent asks a stubbed chat model,
 * the model node's next turn answers (tool calls by the tools' node names, or a text). A script
 * that runs out, or a tool the agent does not offer, is answered with an error the agent sees and
 * kept as the case's failure, naming the turn.
 */
import type { ChatRequest, ModelReply } from './scripted-model.cjs';

export type Turn =
	| { toolCalls: { tool: string; arguments?: Record<string, unknown> }[] }
	| { answer: string };

/** The model id a stubbed model node asks for: says which node's script answers. */
export const modelIdOf = (node: string): string => `scripted:${node}`;

/** A name as n8n makes tool names from node names (Fetch Leads: Fetch_Leads), compared loosely. */
const loose = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

export class ModelScripts {
	private scripts = new Map<string, Turn[]>();
	private played = new Map<string, number>();
	private told = new Map<string, string[]>();
	readonly failures: { node: string; message: string }[] = [];

	/** A case's scripts, by model node name; what earlier cases played is forgotten. */
	load(scripts: Record<string, Turn[]>): void {
		this.scripts = new Map(Object.entries(scripts));
		this.played.clear();
		this.told.clear();
		this.failures.length = 0;
	}

	/** The texts of every message each model node received (tool results included), in order. */
	toldTo(node: string): string[] {
		return this.told.get(node) ?? [];
	}

	reply = (body: ChatRequest): ModelReply => {
		const node = (body.model ?? '').replace(/^scripted:/, '');
		const script = this.scripts.get(node);
		if (!script) return { error: `no script for the model "${node}"` };
		this.told.set(node, [
			...this.toldTo(node),
			...(body.messages ?? []).map((m) =>
				typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? ''),
			),
		]);
		const index = this.played.get(node) ?? 0;
		this.played.set(node, index + 1);
		const turn = script[index];
		const fail = (message: string): ModelReply => {
			this.failures.push({ node, message });
			return { error: message };
		};
		if (!turn)
			return fail(
				`the agent asked the model a ${ordinal(index + 1)} time, but its script has ${script.length} turn(s): add a turn (answer: ... ends the conversation)`,
			);
		if ('answer' in turn) return { message: { role: 'assistant', content: turn.answer } };
		const offered = (body.tools ?? []).map((t) => t.function?.name ?? '').filter(Boolean);
		const calls = [];
		for (const [k, call] of turn.toolCalls.entries()) {
			const name = offered.find((o) => loose(o) === loose(call.tool));
			if (!name)
				return fail(
					`turn ${index + 1}: the agent offers no tool named "${call.tool}" (it offers: ${offered.join(', ') || 'none'})`,
				);
			calls.push({
				id: `call_${index + 1}_${k + 1}`,
				type: 'function',
				function: { name, arguments: JSON.stringify(call.arguments ?? {}) },
			});
		}
		return { message: { role: 'assistant', content: null, tool_calls: calls } };
	};
}

const ordinal = (n: number) =>
	`${n}${n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th'}`;
