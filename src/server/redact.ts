/**
 * Keeps the API token out of everything the proxy passes on (answers, relayed and stored events, logs),
 * also when the upstream spells it with JSON escapes (`\u0074…`, `\/`), in valid JSON or not, or cuts it across data
 * lines; percent-encoded (`7%7CAbc…`, hex digits in either case, `+` for a space, encoded again as `%257C`); and, for a
 * token of the `id|secret` shape (Laravel Sanctum), its secret part on its own, which is a working token too.
 */

const mark = '[redacted]';

/** The shortest secret part of an `id|secret` token redacted on its own: a shorter one could match ordinary text. */
const minSecretPartLength = 16;

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

/** A pattern of a number in hex, `width` digits, each letter in either case. */
const hexOf = (value: number, width: number) =>
  value
    .toString(16)
    .padStart(width, '0')
    .replace(/[a-f]/g, (digit) => `[${digit}${digit.toUpperCase()}]`);

/** A pattern of every spelling JSON has for one UTF-16 unit: itself, its short escape, `\uXXXX` in either case. */
function jsonSpellingsOf(unit: string): string {
  const short = shortEscapes[unit];
  return `(?:${literal(unit)}|\\\\u${hexOf(unit.charCodeAt(0), 4)}${short === undefined ? '' : `|${literal(`\\${short}`)}`})`;
}

const utf8 = new TextEncoder();

/**
 * A pattern of one code point: as itself (or, in JSON text, each of its units in any JSON spelling), or its UTF-8 bytes
 * percent-encoded, each byte possibly encoded again (`%257C`), or `+` for a space (form encoding).
 */
function spellingsOf(codePoint: string, json: boolean): string {
  const alternatives = [json ? codePoint.split('').map(jsonSpellingsOf).join('\\n*') : literal(codePoint)];
  const loneSurrogate = codePoint.length === 1 && /[\ud800-\udfff]/.test(codePoint);
  if (!loneSurrogate)
    alternatives.push([...utf8.encode(codePoint)].map((byte) => `%(?:25)*${hexOf(byte, 2)}`).join(''));
  if (codePoint === ' ') alternatives.push('\\+');
  return `(?:${alternatives.join('|')})`;
}

/** The token and, for an `id|secret` token, its secret part when it is long enough to be a secret. */
function secretsOf(token: string): string[] {
  const bar = token.indexOf('|');
  const part = bar === -1 ? '' : token.slice(bar + 1);
  return part.length >= minSecretPartLength ? [token, part] : [token];
}

/**
 * A redactor of one secret: `text` for any text, `json` for JSON text (valid or not: an event may be cut short). The
 * data lines of one event reach the browser joined by newlines, so the secret cut across lines is redacted too.
 */
export function createRedactor(secret: string) {
  // Matched on the text, not on a parse: no depth to overflow, and an event that is not valid JSON is covered too.
  // Each code point's spellings are fixed and only newlines (and a re-encoding's `25`) repeat between them, so the match
  // stays linear in the text. The whole token comes first, so it is redacted whole rather than around its secret part.
  const secrets = secretsOf(secret);
  const across = (json: boolean) =>
    new RegExp(
      secrets.map((each) => [...each].map((codePoint) => spellingsOf(codePoint, json)).join('\\n*')).join('|'),
      'g',
    );
  const plain = across(false);
  const spelled = across(true);
  // Every secret holds the shortest, so a text without it can hide one only behind a newline or an encoding.
  const shortest = secrets[secrets.length - 1] ?? secret;
  const spaced = secret.includes(' ');
  const mayHold = (value: string) =>
    value.includes(shortest) || value.includes('\n') || value.includes('%') || (spaced && value.includes('+'));
  // Checked first because it runs for every string of every relayed event: most hold none of these.
  const text = (value: string): string => (mayHold(value) ? value.replace(plain, mark) : value);
  const json = (value: string): string =>
    mayHold(value) || value.includes('\\') ? value.replace(spelled, mark) : value;
  return { text, json };
}
