'use client';
/** Text made of formatted values that can wait for the locale data. */
import type { AgentFormat } from '../provider/agent-format.js';
import { plainFormat } from '../provider/agent-format.js';
import { useAgentFormat } from '../provider/use-agent-format.js';

/**
 * The text `children` makes with the provider's formatters. While the worker loads the locale data it keeps its place,
 * hidden and made without `Intl`, so its render loads nothing on the main thread (a resumed build's counts render
 * before the worker answers); it shows once the data is loaded.
 */
export function FormattedText({ children }: { children: (format: AgentFormat) => string }) {
  const format = useAgentFormat();
  if (format.ready) return <>{children(format)}</>;
  return <span className="ae-format-pending">{children(plainFormat)}</span>;
}
