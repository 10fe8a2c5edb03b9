/**
 * `npm run mock`: the mock Agent API on a local port (PORT, default 4010; HOST, default 127.0.0.1;
 * MOCK_SPEED=instant for no delays). Prints the base URL, a development token and the admin URL.
 */
import { startMockAgentServer } from '../src/mock/index.js';

const port = Number(process.env.PORT ?? 4010);
if (!Number.isInteger(port) || port < 0 || port > 65_535)
  throw new Error(`PORT must be a port number, not ${process.env.PORT}.`);
const speed = process.env.MOCK_SPEED === 'instant' ? 'instant' : 'realistic';

const server = await startMockAgentServer({ port, host: process.env.HOST ?? '127.0.0.1', speed });

console.log(`Mock Agent API (${speed}) listening.
  Base URL:  ${server.url}
  Token:     ${server.token}   (a development token of the mock, generated now; valid until it stops)
  Admin:     ${server.adminUrl}/state   (POST /faults, /credits, /suspend, /tokens, /reset ...)

Try:
  curl -N -X POST ${server.url}/agent/generate \\
    -H "Authorization: Bearer ${server.token}" -H "Content-Type: application/json" \\
    -d '{"prompt":"Build a todo app with dark mode"}'
`);

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping the mock Agent API.`);
  await server.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
