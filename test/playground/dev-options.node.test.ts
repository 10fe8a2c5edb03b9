import { describe, expect, it } from 'vitest';
import { devListenOptions } from '../../playground/dev-options.ts';

describe('npm run dev: where the playground listens', () => {
  it('defaults to localhost:5173 with a free mock port', () => {
    expect(devListenOptions([], {})).toEqual({ port: 5173, host: 'localhost', mockPort: 0 });
  });

  it('takes --port and --host from `npm run dev -- --port 5399 --host 0.0.0.0`, in both spellings', () => {
    expect(devListenOptions(['--port', '5399', '--host', '0.0.0.0'], {})).toMatchObject({
      port: 5399,
      host: '0.0.0.0',
    });
    expect(devListenOptions(['--port=5400'], {})).toMatchObject({ port: 5400 });
  });

  it('reads PORT and HOST, and the flags win over them', () => {
    expect(devListenOptions([], { PORT: '6100', HOST: '127.0.0.1', MOCK_PORT: '6200' })).toEqual({
      port: 6100,
      host: '127.0.0.1',
      mockPort: 6200,
    });
    expect(devListenOptions(['--port', '5399'], { PORT: '6100' })).toMatchObject({ port: 5399 });
  });

  it('refuses a port that is not one, naming where it came from', () => {
    expect(() => devListenOptions(['--port', 'abc'], {})).toThrow('--port must be a port number, not abc.');
    expect(() => devListenOptions([], { PORT: '70000' })).toThrow('PORT must be a port number, not 70000.');
  });
});
