/**
 * Keeps the API token out of everything the proxy passes on (answers, relayed and stored events, logs),
 * also when the upstream spells it with JSON escapes (`\u0074…`, `\/`), in valid JSON or not.
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

/** A redactor of one secret: `text` for any text, `json` for JSON text (valid or not: an event may be cut short). */
export function createRedactor(secret: string) {
  const text = (value: string): string => (value.includes(secret) ? value.split(secret).join(mark) : value);
  // Matched on the text, not on a parse: no depth to overflow, and an event that is not valid JSON is covered too.
  // Without quantifiers, so the match stays linear in the text. Code units, as `\uXXXX` spells surrogates.
  const spelled = new RegExp(secret.split('').map(spellingsOf).join(''), 'g');
  // Only an escape can hide the secret from the plain search.
  const json = (value: string): string => (value.includes('\\') ? value.replace(spelled, mark) : text(value));
  return { text, json };
}
