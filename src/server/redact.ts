/**
 * Keeps the API token out of everything the proxy passes on (answers, relayed and stored events, logs),
 * also when the upstream spells it with JSON escapes (`\u0074…`, `\/`), in valid JSON or not, or cuts it across data
 * lines; percent-encoded (`7%7CAbc…`, hex digits in either case, `+` for a space, encoded again as `%257C`); in base64
 * (standard or URL-safe, at any offset: inside a `Basic` credential too) or in hex; and, for a token of the `id|secret`
 * shape (Laravel Sanctum), its secret part on its own, which is a working token too.
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
 * The parts of a secret's base64 spellings that do not depend on what is encoded with it: one for each of the three
 * offsets it can start at within a group of three bytes, in the standard and the URL-safe alphabets. Replacing one
 * leaves at most a character's worth of the secret's bits on either side.
 */
function base64CoresOf(secret: string): string[] {
  const bytes = utf8.encode(secret);
  const cores = new Set<string>();
  for (let offset = 0; offset < 3; offset++) {
    const padded = new Uint8Array(offset + bytes.length + 2);
    padded.set(bytes, offset);
    const encoded = btoa(String.fromCharCode(...padded));
    const core = encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
    cores.add(core).add(core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...cores];
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
  // Base64 and hex, of each secret. A JSON text may escape a base64 `/` as `\/`.
  const cores = secrets.flatMap(base64CoresOf);
  const hexes = secrets.map((each) => [...utf8.encode(each)].map((byte) => hexOf(byte, 2)).join(''));
  const encodedIn = (json: boolean) =>
    new RegExp(
      [...cores.map((core) => literal(core).replace(/\\\//g, json ? '\\\\?\\/' : '\\/')), ...hexes].join('|'),
      'g',
    );
  const encodedPlain = encodedIn(false);
  const encodedJson = encodedIn(true);
  const shortestEncoding = Math.min(...cores.map((core) => core.length));
  const hexLength = 2 * utf8.encode(shortest).length;
  const mayBeEncoded = (value: string, json: boolean) =>
    value.length >= shortestEncoding &&
    (cores.some((core) => value.includes(core)) ||
      (json && value.includes('\\/')) ||
      (value.length >= hexLength && /[0-9a-fA-F]{8}/.test(value)));
  const unencoded = (value: string, json: boolean) =>
    mayBeEncoded(value, json) ? value.replace(json ? encodedJson : encodedPlain, mark) : value;
  // Checked first because it runs for every string of every relayed event: most hold none of these.
  const text = (value: string): string => unencoded(mayHold(value) ? value.replace(plain, mark) : value, false);
  const json = (value: string): string =>
    unencoded(mayHold(value) || value.includes('\\') ? value.replace(spelled, mark) : value, true);
  return { text, json };
}
