/**
 * `npm run dev`: the playground (see playground/server.ts). The agency proxy is mounted at /api/agent in front
 * of the built-in mock Agent API, or in front of a real Agent API when AGENT_API_BASE_URL and AGENT_API_TOKEN
 * are set. PORT (default 5173), HOST (default localhost) and MOCK_PORT (default: a free port) pick the ports.
 */
import { startPlayground } from '../playground/server.ts';
import { playgroundUsers } from '../playground/users.ts';

function portOf(name: string, fallback: number): number {
  const raw = process.env[name];
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
  port: portOf('PORT', 5173),
  host: process.env.HOST ?? 'localhost',
  speed: 'realistic',
  ...(realBaseUrl && realToken
    ? { apiBaseUrl: realBaseUrl, apiToken: realToken }
    : { mock: { port: portOf('MOCK_PORT', 0) } }),
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
