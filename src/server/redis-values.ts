/** How the Redis store writes the values its scripts decode, and reads back what it wrote. */
import { ProxyStoreUnavailableError } from './proxy-store.js';
import { wellFormedJson } from './well-formed.js';

/**
 * JSON for the scripts that decode it (Redis's cjson refuses a lone surrogate's escape, so the turn of a prompt with
 * one would never get its outcome).
 */
export const luaJson = wellFormedJson;

/** What a key holds, parsed; NaN when it does not parse. */
export function parsedOrNaN(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return Number.NaN;
  }
}

/** A value read from Redis; one that does not read (NaN: written by something else) makes the store unavailable. */
export function stored<Value>(key: string, value: Value): Value {
  if (typeof value === 'number' && Number.isNaN(value))
    throw new ProxyStoreUnavailableError(new Error(`${key} holds a value the store did not write`));
  return value;
}
