/**
 * Statuses from answers name labels only by the labels' own entries: a deployment status `__proto__` (a string, so
 * the proxy's type check passes it) renders as a status, and a tool named `constructor` as words.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DeployButton, toolWords, type ExternalUser } from 'agent-embed';
import { cleanupRendered, renderWithMock } from './render-with-mock.js';

afterEach(cleanupRendered);

const ada: ExternalUser = { id: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' };

describe('a status or tool name that every object has', () => {
  it('a deployment status "__proto__" (a label lookup on a plain object): the deploy result renders (no crash)', async () => {
    const rendered = renderWithMock(<DeployButton provider="vercel" />, {
      store: {},
      provider: { externalUser: ada },
      wrapTransport: (inner) => ({
        json: async (request) => {
          const body = (await inner.json(request)) as { data?: Record<string, unknown> };
          return request.path.endsWith('/deploy') ? { ...body, data: { ...body.data, status: '__proto__' } } : body;
        },
        stream: inner.stream,
      }),
    });
    await act(async () => {
      await rendered.store!.getState().generate({ prompt: 'A portfolio site for a ceramic artist' });
    });
    const region = () => screen.getByRole('region', { name: 'Publish to the web' });
    const { user } = rendered;
    await user.click(await within(region()).findByRole('button', { name: 'Connect Vercel' }));
    const dialog = screen.getByRole('dialog', { name: 'Connect Vercel' });
    await user.type(within(dialog).getByLabelText('Vercel access token'), 'ada-account:token');
    await user.click(within(dialog).getByRole('button', { name: 'Connect' }));
    await user.click(await within(region()).findByRole('button', { name: 'Deploy to Vercel' }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'deployed'));
  });
});

describe('tool names', () => {
  it('turns a tool named after what every object has into words, like any other', () => {
    for (const tool of ['constructor', '__proto__', 'toString', 'hasOwnProperty'])
      expect(typeof toolWords(tool, {})).toBe('string');
    expect(toolWords('constructor', {})).toBe('Constructor');
    expect(toolWords('hasOwnProperty', {})).toBe('Has own property');
  });
});
