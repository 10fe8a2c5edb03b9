/** A module worker's program for test/mock/mock-worker.browser.test.tsx: the mock and its proxy, served to the page. */
import { serveMockInWorker } from 'agent-embed/mock';

serveMockInWorker({ speed: 'instant', credits: 10_000, scenario: { files: 3000 } });
