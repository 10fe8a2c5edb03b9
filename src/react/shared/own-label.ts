/**
 * A label named by a key that comes from outside (a tool, a deployment or installation status, an error code from a
 * saved record): only the record's own entries, never what every object inherits (`constructor`, `__proto__`), which
 * would render as a function or an object and throw.
 */
export function ownLabel<Label>(labels: Readonly<Record<string, Label>>, key: string): Label | undefined {
  return Object.hasOwn(labels, key) ? labels[key] : undefined;
}
