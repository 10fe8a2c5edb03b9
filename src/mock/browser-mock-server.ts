/**
 * `startMockAgentServer` in the browser build of agent-embed/mock: browsers cannot listen on a port, and a
 * browser bundle must not pull in `node:http`. Node resolves agent-embed/mock to the real server.
 */
import type { MockAgentServer, MockAgentServerOptions } from './mock-server.js';

/** Rejects: the mock as an HTTP server needs Node; in a browser use `createMockTransport` or `createMockAgentApi`. */
export async function startMockAgentServer(_options: MockAgentServerOptions = {}): Promise<MockAgentServer> {
  throw new Error(
    'startMockAgentServer needs Node (it listens on a port). In a browser use createMockTransport or createMockAgentApi from agent-embed/mock.',
  );
}
