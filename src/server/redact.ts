/**
 * Keeps the API token out of everything the proxy passes on (answers, relayed and stored events, logs),
 * also when the upstream echoes it inside a JSON string spelled with escapes (`\u0074…`).
 */

const mark = '[redacted]';

/** A redactor of one secret: `text` for any text, `json` for a JSON document (falls back to `text`). */
export function createRedactor(secret: string) {
  const text = (value: string): string => (value.includes(secret) ? value.split(secret).join(mark) : value);
  const json = (value: string): string => {
    const plain = text(value);
    // Only an escape can hide the secret from the plain search.
    if (!plain.includes('\\')) return plain;
    let parsed: unknown;
    try {
      parsed = JSON.parse(plain);
    } catch {
      return plain;
    }
    let changed = false;
    const clean = (item: unknown): unknown => {
      if (typeof item === 'string') {
        if (!item.includes(secret)) return item;
        changed = true;
        return text(item);
      }
      if (Array.isArray(item)) return item.map(clean);
      if (item !== null && typeof item === 'object')
        return Object.fromEntries(Object.entries(item).map(([key, entry]) => [clean(key), clean(entry)]));
      return item;
    };
    const result = clean(parsed);
    return changed ? JSON.stringify(result) : plain;
  };
  return { text, json };
}
