/** The proxy's structured log: every reason redacted and bounded, a failing logger harmless, operator warnings once. */
import type { ProxyLogEntry } from './proxy-types.js';

/**
 * Longest reason passed on. A reason is a few words of the proxy's own; this bounds any error text in one (an
 * exception's message) so that it can never carry a body into the log.
 */
const maxReasonChars = 500;
// Control characters (and the JavaScript line separators) could forge log lines; each becomes a space.
// eslint-disable-next-line no-control-regex
const controlCharacters = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/** Creates the log of one proxy over the agency's `onLog`. */
export function createProxyLog(onLog: ((entry: ProxyLogEntry) => void) | undefined, redact: (text: string) => string) {
  // Redacted before it is cut, so a cut can never leave part of the token behind.
  const bounded = (reason: string) => {
    const text = redact(reason).replace(controlCharacters, ' ');
    return text.length > maxReasonChars ? `${text.slice(0, maxReasonChars)}…` : text;
  };
  const log = (entry: ProxyLogEntry) => {
    if (!onLog) return;
    try {
      onLog(entry.reason === undefined ? entry : { ...entry, reason: bounded(entry.reason) });
    } catch {
      // A failing logger must not fail the request.
    }
  };
  // Warnings an operator needs once, not once per request.
  const warned = new Set<string>();
  const warnOnce = (key: string, entry: ProxyLogEntry) => {
    if (warned.has(key)) return;
    warned.add(key);
    log(entry);
  };
  return { log, warnOnce };
}
