/**
 * `npm run dev`: the playground (see playground/server.ts). The agency proxy is mounted at /api/agent in front
 * of the built-in mock Agent API, or in front of a real Agent API when AGENT_API_BASE_URL and AGENT_API_TOKEN
 * are set. `--port N` and `--host H` (or PORT and HOST; defaults 5173 and localhost) pick where the page
 * listens; MOCK_PORT (default: a free port) picks the mock's port.
 */
import { parseArgs } from 'node:util';
import { startPlayground } from '../playground/server.ts';
import { playgroundUsers } from '../playground/users.ts';

const { values: flags } = parseArgs({
  options: { port: { type: 'string' }, host: { type: 'string' } },
  allowPositionals: true,
});

function portOf(name: string, raw: string | undefined, fallback: number): number {
  const port = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new Error(`${name} must be a port number, not ${raw}.`);
  return port;
}

const realBaseUrl = process.env.AGENT_API_BASE_URL || undefined;
const realToken = process.env.AGENT_API_TOKEN || undefined;
if (realBaseUrl && !realToken)
  throw new Error('AGENT_API_BASE_URL is set but AGENT_API_TOKEN is not: set both to use a real Agent API.');

const playground = await startPlayground({
  port: portOf('--port', flags.port ?? process.env.PORT, 5173),
  host: flags.host ?? process.env.HOST ?? 'localhost',
  speed: 'realistic',
  ...(realBaseUrl && realToken
    ? { apiBaseUrl: realBaseUrl, apiToken: realToken }
    : { mock: { port: portOf('MOCK_PORT', process.env.MOCK_PORT, 0) } }),
});
playground.printUrls();
console.log(
  playground.mock
    ? `  Agent API: built-in mock at ${playground.mock.url} (users: ${playgroundUsers.map((user) => user.name).join(', ')})`
    : `  Agent API: ${realBaseUrl}`,
);

async function shutdown() {
  await playground.close();
  process.exit(0);
}
process.once('SIGINT', () => void shutdown());
process.once('SIGTERM', () => void shutdown());
