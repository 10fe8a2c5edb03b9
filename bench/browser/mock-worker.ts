/** The bench page's mock worker: the in-browser mock and its proxy, off the page, with the bench's generation. */
import { serveMockInWorker } from 'agent-embed/mock';
import { benchScript } from './bench-script.ts';

const steps = Number(self.name || 20_000);
// Built once at start: the bench's own data, not work of agent-embed's to measure after the click.
const script = benchScript(steps);
serveMockInWorker({ speed: 'instant', credits: steps * 2, rateLimit: false, scenario: { script: () => script } });
