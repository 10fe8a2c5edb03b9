/** Helpers for driving the mock through its fetch handler. */
import type { MockAgentApi, MockTimers } from 'agent-embed/mock';

/** Options of one call. */
export interface CallOptions {
  body?: unknown;
  /** Raw body text, sent as is. */
  rawBody?: string;
  /** The bearer token; null sends no Authorization header. Default: the mock's token. */
  token?: string | null;
  headers?: Record<string, string>;
}

/** Sends one request to the mock's handler. `path` is relative to the API base URL unless it starts with '/__' or 'http'. */
export function call(api: MockAgentApi, method: string, path: string, options: CallOptions = {}): Promise<Response> {
  const url = path.startsWith('http')
    ? path
    : path.startsWith('/__') || path.startsWith('/apps')
      ? new URL(path, api.baseUrl).href
      : `${api.baseUrl}${path}`;
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  const token = options.token === undefined ? api.token : options.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  const init: RequestInit = { method, headers };
  if (options.rawBody !== undefined) init.body = options.rawBody;
  else if (options.body !== undefined) {
    init.body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  return api.fetch(new Request(url, init));
}

/** Sends a request and parses its JSON body. */
export async function callJson(
  api: MockAgentApi,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await call(api, method, path, options);
  const text = await response.text();
  return { status: response.status, body: text === '' ? null : JSON.parse(text), headers: response.headers };
}

/** An SSE body split into its parts. */
export interface ParsedStream {
  events: Array<Record<string, any>>;
  comments: string[];
  malformed: string[];
}

/** Splits an SSE text into events (parsed `data:` lines), comments and lines that are not JSON. */
export function parseSse(text: string): ParsedStream {
  const parsed: ParsedStream = { events: [], comments: [], malformed: [] };
  for (const block of text.split('\n\n')) {
    for (const line of block.split('\n')) {
      if (line === '') continue;
      if (line.startsWith(':')) parsed.comments.push(line.slice(1).trim());
      else if (line.startsWith('data: ')) {
        try {
          parsed.events.push(JSON.parse(line.slice(6)));
        } catch {
          parsed.malformed.push(line);
        }
      } else parsed.malformed.push(line);
    }
  }
  return parsed;
}

/** Starts a generation or follow-up and reads the whole stream. */
export async function generate(
  api: MockAgentApi,
  body: unknown = { prompt: 'Build a todo app with dark mode' },
  projectId?: string,
  token?: string,
): Promise<ParsedStream & { status: number; contentType: string | null }> {
  const response = await call(
    api,
    'POST',
    projectId === undefined ? '/agent/generate' : `/agent/generate/${projectId}`,
    {
      body,
      headers: { accept: 'text/event-stream' },
      ...(token === undefined ? {} : { token }),
    },
  );
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    ...(response.status === 200 ? parseSse(text) : { events: [], comments: [], malformed: [text] }),
  };
}

/** Reads a body to its end or its failure: the text received and what it failed with, if anything. */
export async function readToEnd(response: Response): Promise<{ text: string; failure: unknown }> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text, failure: undefined };
      text += decoder.decode(value, { stream: true });
    }
  } catch (failure) {
    return { text, failure };
  }
}
/** Types of the events, in order. */
export function types(events: Array<Record<string, any>>): string[] {
  return events.map((event) => String(event.type));
}

/** Lets every pending promise and I/O callback run. */
export async function settle(rounds = 5): Promise<void> {
  for (let index = 0; index < rounds; index++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Timers under test control: time moves only when `runAll` or `advance` is called. */
export function createManualTimers(start = 0): {
  timers: MockTimers;
  now: () => number;
  advance(ms: number): Promise<void>;
  runAll(limit?: number): Promise<void>;
  pending(): number;
} {
  let time = start;
  let nextId = 1;
  const queue: Array<{ id: number; at: number; callback: () => void }> = [];
  const fireNext = async () => {
    queue.sort((a, b) => a.at - b.at || a.id - b.id);
    const next = queue.shift();
    if (next === undefined) return false;
    time = Math.max(time, next.at);
    next.callback();
    await settle();
    return true;
  };
  return {
    timers: {
      setTimeout(callback, ms) {
        const id = nextId++;
        queue.push({ id, at: time + ms, callback });
        return id;
      },
      clearTimeout(handle) {
        const index = queue.findIndex((entry) => entry.id === handle);
        if (index >= 0) queue.splice(index, 1);
      },
    },
    now: () => time,
    async advance(ms) {
      const until = time + ms;
      await settle();
      for (;;) {
        queue.sort((a, b) => a.at - b.at || a.id - b.id);
        if (queue[0] === undefined || queue[0].at > until) break;
        await fireNext();
      }
      time = until;
    },
    async runAll(limit = 10_000) {
      await settle();
      for (let count = 0; count < limit && (await fireNext()); count++);
    },
    pending: () => queue.length,
  };
}
