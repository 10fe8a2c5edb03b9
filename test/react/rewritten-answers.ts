/** Answers rewritten between the client and the mock's proxy, as another proxy or a broken upstream would give them. */
import type { ExternalUser } from 'agent-embed';
import { createAgentClient, type AgentTransport, type TransportRequest } from 'agent-embed/core';
import { createMockAgentApi, createMockTransport } from 'agent-embed/mock';

/** A route's answer: `answer` gets the real answer on request (to rewrite it) and the request. */
export interface Rule {
  method: string;
  path: RegExp;
  answer: (real: () => Promise<unknown>, request: TransportRequest) => unknown;
}

/** A rule for one method and path. */
export const rule = (method: string, path: RegExp, answer: Rule['answer']): Rule => ({ method, path, answer });

/** Answers matching requests by the first rule that matches; everything else goes through. */
export function answering(...rules: Rule[]) {
  return (inner: AgentTransport): AgentTransport => ({
    json: async (request) => {
      const found = rules.find((candidate) => candidate.method === request.method && candidate.path.test(request.path));
      return found === undefined ? inner.json(request) : found.answer(() => inner.json(request), request);
    },
    stream: (request, handlers) => inner.stream(request, handlers),
  });
}

/** The envelope of the deployment and code-hosting endpoints, around `data`. */
export const envelope = (data: unknown) => ({ success: true, message: '', data, errors: null });

/** The text an end user reads, one text node a word apart (textContent glues "null" to the next word). */
export function shownText(element: Element): string {
  const walker = element.ownerDocument.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  const parts: string[] = [];
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) parts.push(node.textContent ?? '');
  return parts.join(' ');
}

/** A mock with one project the user built, for the routes that need a real one (deploy, link, push, status). */
export async function projectInMock(externalUser: ExternalUser, prompt: string) {
  const api = createMockAgentApi({ speed: 'instant', rateLimit: false });
  const client = createAgentClient({ transport: createMockTransport({ api, externalUser }) });
  const { projectId } = await client.generate({ prompt });
  if (projectId === undefined) throw new Error('The mock named no project.');
  return { api, projectId };
}
