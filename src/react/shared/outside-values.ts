/**
 * Values that come from outside (an answer, a saved record) read before they reach the screen: a field typed as a
 * string may be `null` (the proxy keeps null for any field) or, behind another proxy, anything at all.
 */

/**
 * A label named by a key that comes from outside (a tool, a deployment or installation status, an error code from a
 * saved record): only the record's own entries, never what every object inherits (`constructor`, `__proto__`), which
 * would render as a function or an object and throw.
 */
export function ownLabel<Label>(labels: Readonly<Record<string, Label>>, key: string): Label | undefined {
  return Object.hasOwn(labels, key) ? labels[key] : undefined;
}

/** A status from an answer as the labels name it: any casing (`READY`, `Active`) in lower case; '' for none. */
export function statusKey(status: unknown): string {
  return textOf(status).toLowerCase();
}

/** The display name of a status from an answer, in any casing; undefined for one the labels do not name. */
export function statusLabel(labels: Readonly<Record<string, string>>, status: unknown): string | undefined {
  return ownLabel(labels, statusKey(status));
}

/** A text field of an answer, trimmed; `''` for null or anything that is not a string. */
export function textOf(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}
