/**
 * `npm run dev`: the playground (see playground/server.ts). The agency proxy is mounted at /api/agent in front
 * of the built-in mock Agent API, or in front of a real Agent API when AGENT_API_BASE_URL and AGENT_API_TOKEN
 * are set. `--port N` and `--host H` (or PORT and HOST; defaults 5173 and localhost) pick where the page
 * listens; MOCK_PORT (default: a free port) picks the mock's port.
 */
import { devListenOptions } from '../playground/dev-options.ts';
import { startPlayground } from '../playground/server.ts';
import { playgroundUsers } from '../playground/users.ts';

const listen = devListenOptions(process.argv.slice(2), process.env);

const realBaseUrl = process.env.AGENT_API_BASE_URL || undefined;
const realToken = process.env.AGENT_API_TOKEN || undefined;
if (realBaseUrl && !realToken)
  throw new Error('AGENT_API_BASE_URL is set but AGENT_API_TOKEN is not: set both to use a real Agent API.');

const playground = await startPlayground({
  port: listen.port,
  host: listen.host,
  speed: 'realistic',
  ...(realBaseUrl && realToken
    ? { apiBaseUrl: realBaseUrl, apiToken: realToken }
    : { mock: { port: listen.mockPort } }),
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
