/**
 * A Form Trigger's form as a test fills it in: its fields by label (or field name, which n8n 2.x
 * names the output's fields by when set), sent as n8n's own form page sends them: multipart form
 * data, each field under `field-<its position>`, lists (checkboxes, multiple choice) as JSON.
 */
import type { WorkflowNode } from './workflow.cjs';

interface FormField {
	fieldLabel?: string;
	fieldName?: string;
}

const fieldsOf = (node: WorkflowNode): FormField[] => {
	const values = (node.parameters?.formFields as { values?: unknown } | undefined)?.values;
	return Array.isArray(values) ? (values as FormField[]) : [];
};

/** The names a test may fill a field in by: its label, and its field name where it has one. */
export function formFieldNames(node: WorkflowNode): string[] {
	return fieldsOf(node).flatMap((f) =>
		[f.fieldLabel, f.fieldName].filter((n): n is string => typeof n === 'string' && n !== ''),
	);
}

/** The form's submission: each field given, under the key n8n reads it from. */
export function formData(
	node: WorkflowNode,
	values: Record<string, string | number | boolean | string[]>,
): FormData {
	const data = new FormData();
	fieldsOf(node).forEach((field, index) => {
		const name = [field.fieldName, field.fieldLabel].find(
			(n) => typeof n === 'string' && n in values,
		);
		if (name === undefined) return;
		const value = values[name];
		data.append(`field-${index}`, Array.isArray(value) ? JSON.stringify(value) : String(value));
	});
	return data;
}
