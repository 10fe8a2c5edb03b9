/** The proxy's structured log: every reason redacted, a failing logger harmless, operator warnings once. */
import type { ProxyLogEntry } from './proxy-types.js';

/** Creates the log of one proxy over the agency's `onLog`. */
export function createProxyLog(onLog: ((entry: ProxyLogEntry) => void) | undefined, redact: (text: string) => string) {
  const log = (entry: ProxyLogEntry) => {
    if (!onLog) return;
    try {
      onLog(entry.reason === undefined ? entry : { ...entry, reason: redact(entry.reason) });
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
