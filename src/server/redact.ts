/**
 * Keeps the API token out of everything the proxy passes on (answers, relayed and stored events, logs),
 * also when the upstream spells it with JSON escapes (`\u0074…`, `\/`), in valid JSON or not, or cuts it across data lines.
 */

const mark = '[redacted]';

/** The escapes JSON gives a character besides `\uXXXX`. */
const shortEscapes: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  '\b': 'b',
  '\f': 'f',
  '\n': 'n',
  '\r': 'r',
  '\t': 't',
};

const literal = (text: string) => text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');

/** A pattern of every spelling JSON has for one UTF-16 unit: itself, its short escape, `\uXXXX` in either case. */
function spellingsOf(unit: string): string {
  const hex = unit
    .charCodeAt(0)
    .toString(16)
    .padStart(4, '0')
    .replace(/[a-f]/g, (digit) => `[${digit}${digit.toUpperCase()}]`);
  const short = shortEscapes[unit];
  return `(?:${literal(unit)}|\\\\u${hex}${short === undefined ? '' : `|${literal(`\\${short}`)}`})`;
}

/**
 * A redactor of one secret: `text` for any text, `json` for JSON text (valid or not: an event may be cut short). The
 * data lines of one event reach the browser joined by newlines, so the secret cut across lines is redacted too.
 */
export function createRedactor(secret: string) {
  // Matched on the text, not on a parse: no depth to overflow, and an event that is not valid JSON is covered too.
  // Each unit's spelling is fixed and only newlines repeat between them, so the match stays linear in the text.
  // Code units, as `\uXXXX` spells surrogates.
  const across = (spell: (unit: string) => string) => new RegExp(secret.split('').map(spell).join('\\n*'), 'g');
  const plain = across(literal);
  const spelled = across(spellingsOf);
  const text = (value: string): string =>
    value.includes('\n') ? value.replace(plain, mark) : value.includes(secret) ? value.split(secret).join(mark) : value;
  // Only an escape or a newline can hide the secret from the plain search.
  const json = (value: string): string =>
    value.includes('\\') || value.includes('\n') ? value.replace(spelled, mark) : text(value);
  return { text, json };
}
