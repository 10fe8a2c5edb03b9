/**
 * Well-formed text for decoders that refuse a lone surrogate's `\uD800` escape, which `JSON.stringify` writes (the
 * upstream's JSON decoder, Redis's cjson): each lone surrogate becomes U+FFFD, as a browser's TextEncoder makes it.
 */

/** The text with each lone surrogate replaced by U+FFFD (`String.prototype.toWellFormed`, which ES2023 typings lack). */
const wellFormed = (text: string): string => text.replace(/\p{Surrogate}/gu, '\uFFFD');

/** JSON of a value whose every string is made well-formed first (see the module comment). */
export const wellFormedJson = (value: unknown): string =>
  JSON.stringify(value, (_key, field: unknown) => (typeof field === 'string' ? wellFormed(field) : field));
