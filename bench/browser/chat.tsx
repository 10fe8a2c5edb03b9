/**
 * The comparison page of `npm run bench:browser`: the AI SDK's `useChat` (its default HTTP transport) receiving
 * the same build from the bench's server as one assistant message, either as a `data-*` part per event
 * (`?variant=data`) or as one text part with a line per event (`?variant=text`). Each message shows its last
 * rows only, about as many DOM rows as agent-embed's log keeps, so both pages pay for the same DOM. Measured by
 * the same code as agent-embed's page (measure.ts), from the click to the render of the finished message.
 */
// First: the commit counter must be in place before react-dom loads.
import './react-commits.ts';
import { memo, StrictMode, useEffect, useState, type FormEvent } from 'react';
import { createRoot } from 'react-dom/client';
import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport, type UIMessage } from 'ai';
import type { BenchEvent } from './bench-script.ts';
import { startMeasuring } from './measure.ts';
import { eventLine } from './ui-message-stream.ts';

const query = new URLSearchParams(window.location.search);
const steps = Number(query.get('steps') ?? 20_000);
const variant = query.get('variant') === 'text' ? 'text' : 'data';
// As many rows as agent-embed's store keeps for its log: 20 windowed file rows and the last 200 tool steps.
const visibleRows = 220;

let shown: { parts: number; textLength: number } = { parts: 0, textLength: 0 };
startMeasuring({
  steps,
  rowSelector: '.chat-row',
  countText: () =>
    document.querySelector('.chat [role="alert"]')?.textContent ??
    (variant === 'data' ? `${shown.parts} parts` : `${shown.textLength.toLocaleString('en-US')} characters of text`),
  state: () => document.querySelector('.chat')?.getAttribute('data-state') ?? 'idle',
  terminal: new Set(['done', 'error']),
});

/** A row of the log: its text and a key that stays with it while rows are appended. */
interface Row {
  key: string;
  text: string;
}

/** The last `count` lines of `text`, found from its end (no split of the whole text per render), keyed by offset. */
function lastLines(text: string, count: number, prefix: string): Row[] {
  const lines: Row[] = [];
  let end = text.endsWith('\n') ? text.length - 1 : text.length;
  while (end > 0 && lines.length < count) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    lines.push({ key: `${prefix}:${start}`, text: text.slice(start, end) });
    end = start - 1;
  }
  return lines.reverse();
}

/** A message's last rows: one per data part, one per line of its text parts. */
function rowsOf(message: UIMessage): Row[] {
  const rows: Row[] = [];
  const first = Math.max(0, message.parts.length - visibleRows);
  message.parts.slice(first).forEach((part, offset) => {
    const index = first + offset;
    if (part.type === 'text') rows.push(...lastLines(part.text, visibleRows, String(index)));
    else if (part.type.startsWith('data-') && 'data' in part) {
      const event = { type: part.type.slice('data-'.length), ...(part.data as object) } as BenchEvent;
      rows.push({ key: String(index), text: eventLine(event) });
    }
  });
  return rows.slice(-visibleRows);
}

// Rows already shown are skipped on each render: only the appended one reaches the DOM.
const LogRow = memo(function LogRow({ text }: { text: string }) {
  return <li className="chat-row">{text}</li>;
});

function BuildChat() {
  const [transport] = useState(() => new DefaultChatTransport({ api: `/api/chat/${variant}` }));
  const { messages, sendMessage, status, error } = useChat({ transport });
  const [prompt, setPrompt] = useState('');
  const last = messages.at(-1);
  const state = status === 'error' ? 'error' : status === 'ready' && last?.role === 'assistant' ? 'done' : status;
  useEffect(() => {
    const parts = last?.parts ?? [];
    shown = {
      parts: parts.length,
      textLength: parts.reduce((sum, part) => sum + (part.type === 'text' ? part.text.length : 0), 0),
    };
  }, [last]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void sendMessage({ text: prompt });
  };
  return (
    <section className="chat" data-state={state} aria-label="Build chat">
      <form onSubmit={submit}>
        <label>
          Describe the app you want
          <input value={prompt} onChange={(event) => setPrompt(event.target.value)} />
        </label>
        <button type="submit">Generate</button>
      </form>
      {error !== undefined && <p role="alert">{error.message}</p>}
      {messages.map((message) => (
        <article key={message.id} aria-label={message.role}>
          <ol>
            {rowsOf(message).map((row) => (
              <LogRow key={row.key} text={row.text} />
            ))}
          </ol>
        </article>
      ))}
    </section>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BuildChat />
  </StrictMode>,
);
