import type { INodeProperties } from 'n8n-workflow';
import { createInboxesProperties } from './description';

/*
 * A service's reason names the API field it refused ("send acceptDomainAsTyped: true"), while
 * this node shows that field under a label (Additional Fields > Accept Address As Typed). The
 * reason keeps the service's words and gets the labels added, read from the node's own
 * description so they cannot drift from what the panel shows.
 */

function labelsOf(properties: INodeProperties[], parent = ''): [string, string][] {
	return properties.flatMap((property): [string, string][] => {
		const label = parent ? `${parent} > ${property.displayName}` : property.displayName;
		if (property.type === 'collection')
			return labelsOf((property.options ?? []) as INodeProperties[], property.displayName);
		// Only camelCase API names (a plain word such as "provider" is the service's prose), and not
		// where the label is the name in words on the panel's first level ("Email Address").
		const sameWords =
			!parent &&
			property.displayName.replace(/\s/g, '').toLowerCase() === property.name.toLowerCase();
		return property.type !== 'notice' && /[a-z][A-Z]/.test(property.name) && !sameWords
			? [[property.name, label]]
			: [];
	});
}

const LABELS = labelsOf(createInboxesProperties);

/** The reason, with the node's label for every API field it names. */
export function inNodeWords(reason: string): string {
	const named = LABELS.filter(([field]) => new RegExp(`\\b${field}\\b`).test(reason));
	if (named.length === 0) return reason;
	return `${reason} (in this node: ${named.map(([field, label]) => `${field} is "${label}"`).join(', ')})`;
}
