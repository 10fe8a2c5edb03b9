/**
 * Answers the library's own proxy lets through (it keeps `null` for any field, and any value of a field's allowed
 * type) never crash a component or show nonsense: `null`, `undefined`, `NaN`, `Invalid Date`, "Connected as " with
 * nothing, an empty badge or button name, a raw status word in another language. The transport layer below stands
 * where the proxy's answer reaches the client.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AgentBuilder,
  AppPreview,
  CodehostConnect,
  DeployButton,
  PlanList,
  ProjectStatus,
  RepoPicker,
  type ExternalUser,
} from 'agent-embed';
import type { TransportRequest } from 'agent-embed/core';
import { de } from 'agent-embed/locales/de';
import { answering, envelope, projectInMock, shownText, type Rule } from './rewritten-answers.js';
import { cleanupRendered, renderWithMock, type RenderWithMockOptions } from './render-with-mock.js';

afterEach(cleanupRendered);

const ada: ExternalUser = { id: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' };
const prompt = 'A portfolio site for a ceramic artist';
const at = '2024-05-01T10:00:00.000Z';
const long = 'x'.repeat(5000);

/** Words that must never reach an end user. */
const nonsense = /\bnull\b|\bundefined\b|\bNaN\b|Invalid Date|\[object Object\]|\b1970\b/;

function expectNoNonsense(element: HTMLElement) {
  expect(shownText(element)).not.toMatch(nonsense);
}

// ---------------------------------------------------------------------------------------------------------------
// Deployment connections and deploy results
// ---------------------------------------------------------------------------------------------------------------

const deploymentConnection = (overrides: Record<string, unknown> = {}) => ({
  id: 1,
  provider: 'vercel',
  provider_name: 'Vercel',
  external_user_id: 'ada',
  provider_account_id: 'acc_1',
  provider_account_name: 'Ada (Vercel)',
  provider_account_email: 'ada@example.com',
  expires_at: null,
  last_used_at: null,
  connected_at: at,
  updated_at: at,
  metadata: { slug: 'ada' },
  ...overrides,
});

/** The listing (which only finds Ada's connection) and the detailed view, with the overrides. */
const connectionRule = (overrides: Record<string, unknown>): Rule => ({
  method: 'GET',
  path: /^\/deployments\/vercel\/connections(\/ada)?$/,
  answer: (_real, request) =>
    request.path.endsWith('/ada') ? envelope(deploymentConnection(overrides)) : envelope([deploymentConnection()]),
});

describe('DeployButton: a deployment connection with null or odd fields', () => {
  const cases: [string, Record<string, unknown>][] = [
    ['provider_account_name null', { provider_account_name: null }],
    ['provider_account_name ""', { provider_account_name: '' }],
    ['provider_account_name null and email null', { provider_account_name: null, provider_account_email: null }],
    ['provider_account_name "" and email ""', { provider_account_name: '', provider_account_email: '' }],
    ['every field null', Object.fromEntries(Object.keys(deploymentConnection()).map((key) => [key, null]))],
    // Behind a proxy other than the library's, any type at all.
    ['provider_account_name 5, email an object', { provider_account_name: 5, provider_account_email: { at: 'x' } }],
  ];
  for (const [label, overrides] of cases) {
    it(`${label}: no crash, no "null", and never "Connected as " with nothing`, async () => {
      renderWithMock(<DeployButton provider="vercel" />, {
        provider: { externalUser: ada },
        wrapTransport: answering(connectionRule({ ...overrides, external_user_id: 'ada' })),
      });
      const region = await screen.findByRole('region', { name: 'Publish to the web' });
      await waitFor(() => expect(region).toHaveAttribute('data-state', 'connected'));
      expectNoNonsense(region);
      const summary = region.querySelector('.ae-connection-text');
      expect(summary?.textContent ?? '').not.toMatch(/Connected as\s*$/);
      expect(within(region).queryByText(/^Connected as\s*$/)).toBeNull();
    });
  }

  for (const [label, expires] of [
    ['expires_at ""', ''],
    ['expires_at "not a date"', 'not a date'],
    ['expires_at 5,000 characters', long],
  ] as const) {
    it(`${label}: shown as a usable connection (no crash)`, async () => {
      renderWithMock(<DeployButton provider="vercel" />, {
        provider: { externalUser: ada },
        wrapTransport: answering(connectionRule({ expires_at: expires })),
      });
      const region = await screen.findByRole('region', { name: 'Publish to the web' });
      await waitFor(() => expect(region.getAttribute('data-state')).toMatch(/^(connected|expired)$/));
      expectNoNonsense(region);
      expect(
        within(region)
          .getAllByRole('button')
          .every((button) => (button.textContent ?? '').trim() !== ''),
      ).toBe(true);
    });
  }
});

/** Deploys a real project of the mock, with the connection and the deploy answer fabricated (data rewritten). */
async function deployWith(data: unknown, provider: NonNullable<RenderWithMockOptions['provider']> = {}) {
  const rendered = renderWithMock(<DeployButton provider="vercel" />, {
    store: {},
    provider: { externalUser: ada, ...provider },
    wrapTransport: answering(connectionRule({}), {
      method: 'POST',
      path: /\/deploy$/,
      answer: (_real, request) => {
        const real = {
          deployment_id: 'dpl_1',
          status: 'ready',
          url: 'https://ada-shop.vercel.app',
          provider: 'vercel',
          project_id: /project\/([^/]+)\/deploy$/.exec(request.path)?.[1] ?? '',
          created_at: at,
        };
        return envelope(typeof data === 'function' ? data(real) : data);
      },
    }),
  });
  await act(async () => {
    await rendered.store!.getState().generate({ prompt });
  });
  const region = () => screen.getByRole('region', { name: provider.locale === 'de' ? /./ : 'Publish to the web' });
  const button = await within(region()).findByRole('button', {
    name: provider.locale === 'de' ? /Vercel/ : 'Deploy to Vercel',
  });
  await waitFor(() => expect(button).toBeEnabled());
  await rendered.user.click(button);
  await waitFor(() => expect(region().getAttribute('data-state')).toMatch(/deployed|failed/));
  return region();
}

describe('DeployButton: a deploy result with null or odd fields', () => {
  const cases: [string, (data: Record<string, unknown>) => Record<string, unknown>][] = [
    ['status null', (data) => ({ ...data, status: null })],
    ['status ""', (data) => ({ ...data, status: '' })],
    ['status "   "', (data) => ({ ...data, status: '   ' })],
    ['url null', (data) => ({ ...data, url: null })],
    ['deployment_id null', (data) => ({ ...data, deployment_id: null })],
    ['every field null', (data) => Object.fromEntries(Object.keys(data).map((key) => [key, null]))],
    ['status 5,000 characters', (data) => ({ ...data, status: long })],
  ];
  for (const [label, rewrite] of cases) {
    it(`${label}: deployed, no crash, no "null", no empty status badge`, async () => {
      const region = await deployWith(rewrite);
      expect(region).toHaveAttribute('data-state', 'deployed');
      expectNoNonsense(region);
      for (const badge of region.querySelectorAll('.ae-badge')) expect((badge.textContent ?? '').trim()).not.toBe('');
    });
  }

  it('a deploy answered with data null (the client fills "queued"): in German the status is German', async () => {
    const region = await deployWith(null, { locale: 'de', labels: de });
    expect(region).toHaveAttribute('data-state', 'deployed');
    const badge = region.querySelector('.ae-badge');
    expect(badge?.textContent).toBe(de.deployButton.deploymentStatuses.queued);
  });

  it('status "READY" (upper case, as Vercel spells its states) in German is the German word, not "READY"', async () => {
    const region = await deployWith((data: Record<string, unknown>) => ({ ...data, status: 'READY' }), {
      locale: 'de',
      labels: de,
    });
    // Not the raw English word; best the German one ("READY" is "ready" in another casing).
    expect(shownText(region)).not.toMatch(/\bREADY\b|\bReady\b/);
    expect(region.querySelector('.ae-badge')?.textContent).toBe(de.deployButton.deploymentStatuses.ready);
  });

  it('status "building" in German is the German word', async () => {
    const region = await deployWith((data: Record<string, unknown>) => ({ ...data, status: 'building' }), {
      locale: 'de',
      labels: de,
    });
    expect(region.querySelector('.ae-badge')?.textContent).toBe(de.deployButton.deploymentStatuses.building);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Code-host connections and the start answer
// ---------------------------------------------------------------------------------------------------------------

const codehostConnection = (overrides: Record<string, unknown> = {}) => ({
  id: 1,
  external_user_id: 'ada',
  external_user_name: 'Ada Lovelace',
  external_user_email: 'ada@example.com',
  codehost_user_id: '42',
  codehost_login: 'ada',
  provider: 'github',
  installation_id: '7',
  target_type: 'User',
  user_authorized: true,
  expires_at: null,
  connected_at: at,
  updated_at: at,
  installation_status: 'active',
  ...overrides,
});

/** The listing (which only finds Ada's connection) and the detailed view, with the overrides. */
const codehostRule = (overrides: Record<string, unknown>): Rule => ({
  method: 'GET',
  path: /^\/codehost\/connections(\/ada)?$/,
  answer: (_real, request) =>
    request.path.endsWith('/ada') ? envelope(codehostConnection(overrides)) : envelope([codehostConnection()]),
});

function renderCodehost(
  overrides: Record<string, unknown>,
  provider: Record<string, unknown> = {},
  extra: Rule[] = [],
) {
  const navigate = vi.fn();
  const rendered = renderWithMock(<CodehostConnect navigate={navigate} returnUrl="http://localhost:3000/" />, {
    provider: { externalUser: ada, ...provider },
    wrapTransport: answering(...extra, codehostRule(overrides)),
  });
  return { ...rendered, navigate };
}

describe('CodehostConnect: a connection with null or odd fields', () => {
  const cases: [string, Record<string, unknown>][] = [
    ['codehost_login null', { codehost_login: null }],
    ['codehost_login ""', { codehost_login: '' }],
    ['codehost_login "   "', { codehost_login: '   ' }],
    ['installation_status null', { installation_status: null }],
    ['installation_status ""', { installation_status: '' }],
    ['connected_at null', { connected_at: null }],
    ['connected_at "not a date"', { connected_at: 'not a date' }],
    ['user_authorized null', { user_authorized: null }],
    ['external_user_name null, email null', { external_user_name: null, external_user_email: null }],
    // Behind a proxy other than the library's, any type at all.
    ['codehost_login an object, connected_at a number', { codehost_login: { login: 'x' }, connected_at: 5 }],
    [
      'every field but the owner null',
      { ...Object.fromEntries(Object.keys(codehostConnection()).map((key) => [key, null])), external_user_id: 'ada' },
    ],
  ];
  for (const [label, overrides] of cases) {
    it(`${label}: no crash, no nonsense, no empty "Connected as", no empty badge`, async () => {
      renderCodehost(overrides);
      const region = await screen.findByRole('region', { name: 'Save the code to GitHub' });
      await waitFor(() => expect(region.getAttribute('data-state')).toMatch(/^(connected|expired|inactive)$/));
      expectNoNonsense(region);
      expect(within(region).queryByText(/^Connected as\s*$/)).toBeNull();
      for (const badge of region.querySelectorAll('.ae-badge')) {
        const shown = [...badge.childNodes]
          .filter((node) => !(node instanceof HTMLElement && node.classList.contains('ae-visually-hidden')))
          .map((node) => node.textContent)
          .join('')
          .trim();
        expect(shown).not.toBe('');
      }
      // The raw upstream text of an unreadable date is not shown as a date.
      expect(region.textContent).not.toContain('not a date');
    });
  }

  it('installation_status null is read as unknown, not as an inactive installation', async () => {
    renderCodehost({ installation_status: null });
    const region = await screen.findByRole('region', { name: 'Save the code to GitHub' });
    await waitFor(() => expect(region.getAttribute('data-state')).not.toBe('loading'));
    expect(region).toHaveAttribute('data-state', 'connected');
  });

  it('installation_status "Active" (another casing) is an active installation', async () => {
    renderCodehost({ installation_status: 'Active' });
    const region = await screen.findByRole('region', { name: 'Save the code to GitHub' });
    await waitFor(() => expect(region.getAttribute('data-state')).not.toBe('loading'));
    expect(region).toHaveAttribute('data-state', 'connected');
  });

  it('installation_status "suspended" in German is the German word', async () => {
    renderCodehost({ installation_status: 'suspended' }, { locale: 'de', labels: de });
    const region = await screen.findByRole('region', { name: de.codehostConnect.heading });
    await waitFor(() => expect(region).toHaveAttribute('data-state', 'inactive'));
    expect(region.querySelector('.ae-badge')?.textContent).toContain(de.codehostConnect.installationStatuses.suspended);
  });

  for (const [label, data] of [
    ['redirect_url null', { redirect_url: null, state: 's' }],
    ['redirect_url "" and state null', { redirect_url: '', state: null }],
    ['every field null', { redirect_url: null, state: null }],
  ] as const) {
    it(`start answer ${label}: no crash, no navigation, the user is told and can try again`, async () => {
      const { navigate, user } = renderCodehost({}, {}, [
        { method: 'GET', path: /^\/codehost\/connections$/, answer: () => envelope([]) },
        { method: 'POST', path: /^\/codehost\/connect\/start$/, answer: () => envelope(data) },
      ]);
      const region = await screen.findByRole('region', { name: 'Save the code to GitHub' });
      await user.click(await within(region).findByRole('button', { name: 'Connect GitHub' }));
      await waitFor(() => expect(region.getAttribute('data-state')).not.toBe('starting'));
      expect(navigate).not.toHaveBeenCalled();
      expectNoNonsense(region);
      expect(within(region).getByRole('button', { name: 'Connect GitHub' })).toBeEnabled();
      expect(within(region).queryByRole('alert')).not.toBeNull();
    });
  }
});

// ---------------------------------------------------------------------------------------------------------------
// Repository pages, link and push
// ---------------------------------------------------------------------------------------------------------------

const repository = (index: number, overrides: Record<string, unknown> = {}) => ({
  id: index,
  name: `repo-${index}`,
  full_name: `ada/repo-${index}`,
  private: false,
  default_branch: 'main',
  html_url: `https://github.com/ada/repo-${index}`,
  clone_url: `https://github.com/ada/repo-${index}.git`,
  permissions: { admin: true, push: true, pull: true },
  ...overrides,
});

const pageRule = (items: unknown[], meta: Record<string, unknown>): Rule => ({
  method: 'GET',
  path: /^\/codehost\/connections\/ada\/repositories$/,
  answer: () => envelope({ items, meta }),
});

function renderPicker(rules: Rule[], props: { perPage?: number; projectId?: string } = {}, mockApi?: unknown) {
  const rendered = renderWithMock(<RepoPicker {...props} />, {
    provider: { externalUser: ada },
    ...(mockApi === undefined ? {} : { mock: { api: mockApi as never } }),
    wrapTransport: answering(...rules),
  });
  const region = () => screen.getByRole('region', { name: 'Repository' });
  return { ...rendered, region };
}

describe('RepoPicker: repository items with null or odd fields', () => {
  const cases: [string, Record<string, unknown>][] = [
    ['full_name null', { full_name: null }],
    ['name null', { name: null }],
    ['name ""', { name: '' }],
    ['default_branch null', { default_branch: null }],
    ['private "yes"', { private: 'yes' }],
    ['private null', { private: null }],
    ['id null', { id: null }],
    ['permissions null', { permissions: null }],
    ['every field null', Object.fromEntries(Object.keys(repository(0)).map((key) => [key, null]))],
    ['full_name 5,000 characters', { full_name: `ada/${long}` }],
  ];
  for (const [label, overrides] of cases) {
    it(`${label} in one item: no crash, no nonsense, the other items still listed and searchable`, async () => {
      const items = [repository(1, overrides), repository(2), repository(3)];
      const { region, user } = renderPicker([
        codehostRule({}),
        pageRule(items, { total_count: 3, page: 1, per_page: 30 }),
      ]);
      await waitFor(() => expect(region()).toHaveAttribute('data-state', 'ready'));
      expectNoNonsense(region());
      // No empty detail (a branch icon beside no branch).
      for (const detail of region().querySelectorAll('.ae-repo-meta .ae-inline'))
        expect(detail.textContent?.trim()).not.toBe('');
      const listbox = within(region()).getByRole('listbox', { name: 'Repositories' });
      expect(within(listbox).getAllByRole('option').length).toBeGreaterThanOrEqual(2);
      // Search and type-ahead read every listed repository's names.
      await user.type(within(region()).getByRole('searchbox'), 'repo');
      expectNoNonsense(region());
      await user.clear(within(region()).getByRole('searchbox'));
      listbox.focus();
      await user.keyboard('r');
      expectNoNonsense(region());
    });
  }

  it('three items with the same id "same": one option, which is selected alone when chosen', async () => {
    const items = [repository(1, { id: 'same' }), repository(2, { id: 'same' }), repository(3, { id: 'same' })];
    const { region, user } = renderPicker([
      codehostRule({}),
      pageRule([...items, repository(4)], { total_count: 4, page: 1, per_page: 30 }),
    ]);
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'ready'));
    const options = within(region()).getAllByRole('option');
    expect(options).toHaveLength(2);
    await user.click(options[0]!);
    const selected = within(region())
      .getAllByRole('option')
      .filter((option) => option.getAttribute('aria-selected') === 'true');
    expect(selected).toEqual([options[0]]);
  });
});

describe('RepoPicker: pages larger than asked for, and meta that lies', () => {
  const many = (count: number) => Array.from({ length: count }, (_, index) => repository(index + 1));

  it('a page of 500 when 30 were asked: at most 30 are listed', async () => {
    const { region } = renderPicker([
      codehostRule({}),
      pageRule(many(500), { total_count: 500, page: 1, per_page: 30 }),
    ]);
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'ready'));
    expect(within(region()).getAllByRole('option').length).toBeLessThanOrEqual(30);
    expectNoNonsense(region());
  });

  const metas: [string, Record<string, unknown>][] = [
    ['total_count negative', { total_count: -5, page: 1, per_page: 30 }],
    ['total_count null', { total_count: null, page: null, per_page: null }],
    ['page 0, per_page 0', { total_count: 3, page: 0, per_page: 0 }],
    ['total_count fractional', { total_count: 2.5, page: 1, per_page: 30 }],
    ['total_count 0 while items are listed', { total_count: 0, page: 1, per_page: 30 }],
    ['total_count 1 while 3 items are listed', { total_count: 1, page: 1, per_page: 30 }],
  ];
  for (const [label, meta] of metas) {
    it(`${label}: the pager never counts fewer repositories than it lists, nor a negative`, async () => {
      const { region } = renderPicker([codehostRule({}), pageRule(many(3), meta)]);
      await waitFor(() => expect(region()).toHaveAttribute('data-state', 'ready'));
      expectNoNonsense(region());
      const pager = region().querySelector('.ae-pager')?.textContent ?? '';
      expect(pager).not.toMatch(/-\d/);
      const counted = /· ([\d,]+) repositor/.exec(pager)?.[1];
      if (counted !== undefined) expect(Number(counted.replace(/,/g, ''))).toBeGreaterThanOrEqual(3);
    });
  }
});

describe('RepoPicker: link and push results with null fields, and a null login', () => {
  it('codehost_login null: saving to a new repository named without an owner asks for one (no push to "null/…")', async () => {
    const { api, projectId } = await projectInMock(ada, prompt);
    const pushes: TransportRequest[] = [];
    const { region, user } = renderPicker(
      [
        codehostRule({ codehost_login: null }),
        pageRule([repository(1)], { total_count: 1, page: 1, per_page: 30 }),
        {
          method: 'POST',
          path: /\/push$/,
          answer: (_real, request) => {
            pushes.push(request);
            return envelope({ repo_url: null, codehost_login: null, branch: null, repo_created: null });
          },
        },
      ],
      { projectId },
      api,
    );
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'ready'));
    await user.type(within(region()).getByLabelText('New repository name'), 'my-app');
    await user.click(within(region()).getByRole('button', { name: 'Create and save' }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expectNoNonsense(region());
    expect(pushes).toHaveLength(0);
    expect(within(region()).getByText('Connect GitHub first, or use owner/name.')).toBeInTheDocument();
  });

  it('a push answered with every field null: the outcome shows no "Not a web address" nor an empty branch', async () => {
    const { api, projectId } = await projectInMock(ada, prompt);
    const { region, user } = renderPicker(
      [
        codehostRule({}),
        pageRule([repository(1)], { total_count: 1, page: 1, per_page: 30 }),
        {
          method: 'POST',
          path: /\/push$/,
          answer: () => envelope({ repo_url: null, codehost_login: null, branch: null, repo_created: null }),
        },
      ],
      { projectId },
      api,
    );
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'ready'));
    await user.type(within(region()).getByLabelText('New repository name'), 'ada/my-app');
    await user.click(within(region()).getByRole('button', { name: 'Create and save' }));
    await waitFor(() => expect(region()).toHaveAttribute('data-push', 'success'));
    expectNoNonsense(region());
    const outcome = region().querySelector('.ae-outcome');
    expect(outcome).not.toBeNull();
    expect(outcome!.textContent).not.toContain('Not a web address');
    expect(outcome!.querySelector('.ae-outcome-meta')).toBeNull();
  });

  it('a link answered with every field null: no crash, no nonsense, then a push to it works', async () => {
    const { api, projectId } = await projectInMock(ada, prompt);
    const { region, user } = renderPicker(
      [
        codehostRule({}),
        pageRule([repository(1)], { total_count: 1, page: 1, per_page: 30 }),
        {
          method: 'POST',
          path: /\/link$/,
          answer: () => envelope({ project_id: null, codehost_login: null, repo_url: null, branch: null }),
        },
        {
          method: 'POST',
          path: /\/push$/,
          answer: () => envelope({ repo_url: '', codehost_login: '', branch: '', repo_created: false }),
        },
      ],
      { projectId },
      api,
    );
    await waitFor(() => expect(region()).toHaveAttribute('data-state', 'ready'));
    await user.click(within(region()).getAllByRole('option')[0]!);
    await user.click(within(region()).getByRole('button', { name: 'Use ada/repo-1' }));
    await waitFor(() => expect(region()).toHaveAttribute('data-link', 'success'));
    expectNoNonsense(region());
    await user.click(within(region()).getByRole('button', { name: 'Save the code to ada/repo-1' }));
    await waitFor(() => expect(region()).toHaveAttribute('data-push', 'success'));
    expectNoNonsense(region());
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Plans
// ---------------------------------------------------------------------------------------------------------------

const plan = (overrides: Record<string, unknown> = {}) => ({
  id: 1,
  name: 'Pro',
  slug: 'pro',
  description: 'For teams',
  price: 49,
  price_monthly: 49,
  currency: 'USD',
  credits: 100,
  features: ['A', 'B'],
  sort_order: 1,
  ...overrides,
});

describe('PlanList: plans with null or odd fields', () => {
  const cases: [string, unknown[]][] = [
    ['name null', [plan({ name: null }), plan({ id: 2, name: 'Team' })]],
    ['name ""', [plan({ name: '' }), plan({ id: 2, name: 'Team' })]],
    ['every field null', [Object.fromEntries(Object.keys(plan()).map((key) => [key, null])), plan({ id: 2 })]],
    ['currency null, description null, features null', [plan({ currency: null, description: null, features: null })]],
    ['price "abc"', [plan({ price: 'abc', price_monthly: 'abc' })]],
    ['price negative', [plan({ price: -5, price_monthly: -5 })]],
    ['price_monthly null while price is 49', [plan({ price_monthly: null })]],
    ['id true (a scalar)', [plan({ id: true })]],
    ['ids 1 and "1"', [plan({ id: 1 }), plan({ id: '1', name: 'Team' })]],
    ['features with "" and a duplicate', [plan({ features: ['', 'A', 'A'] })]],
    ['sort_order null', [plan({ sort_order: null }), plan({ id: 2, name: 'Team', sort_order: 0 })]],
  ];
  for (const [label, plans] of cases) {
    it(`${label}: no crash, no nonsense, every choose button named`, async () => {
      renderWithMock(<PlanList onSelect={() => {}} />, {
        provider: { externalUser: ada },
        wrapTransport: answering({ method: 'GET', path: /^\/subscription-plans$/, answer: () => envelope(plans) }),
      });
      const region = await screen.findByRole('region', { name: 'Plans' });
      await waitFor(() => expect(region.getAttribute('data-state')).not.toBe('loading'));
      expectNoNonsense(region);
      for (const button of within(region).queryAllByRole('button'))
        expect(button.textContent ?? '').not.toMatch(/^Choose\s*$/);
      expect(region.textContent).not.toMatch(/-\s?\$|\$\s?-|−/);
      if (label.startsWith('price_monthly null')) expect(region.textContent).toContain('$49');
      for (const item of region.querySelectorAll('.ae-plan-features li'))
        expect((item.textContent ?? '').trim()).not.toBe('');
      // Each plan's heading names its own plan (no id shared by two plans).
      const headings = within(region)
        .queryAllByRole('heading', { level: 3 })
        .map((heading) => heading.id);
      expect(new Set(headings).size).toBe(headings.length);
    });
  }
});

// ---------------------------------------------------------------------------------------------------------------
// Project status, preview, builder and project list
// ---------------------------------------------------------------------------------------------------------------

function projectRule(projectId: string, rewrite: (project: Record<string, unknown>) => Record<string, unknown>): Rule {
  return {
    method: 'GET',
    path: new RegExp(`^/agent/project/${projectId}$`),
    answer: async (real) => rewrite((await real()) as Record<string, unknown>),
  };
}

describe('ProjectStatus and AppPreview: a status answer with null or odd fields', () => {
  const cases: [string, Record<string, unknown>][] = [
    ['name null', { name: null }],
    ['name ""', { name: '' }],
    ['app_url null', { app_url: null }],
    ['project_status null', { project_status: null }],
    ['project_status ""', { project_status: '' }],
    ['name, app_url and project_status null', { name: null, app_url: null, project_status: null }],
    ['name 5,000 characters', { name: long }],
  ];
  for (const [label, overrides] of cases) {
    it(`${label}: no crash, no nonsense, and no "Loading…" that never ends`, async () => {
      const { api, projectId } = await projectInMock(ada, prompt);
      renderWithMock(
        <>
          <ProjectStatus projectId={projectId} />
          <AppPreview projectId={projectId} />
        </>,
        {
          mock: { api },
          provider: { externalUser: ada },
          wrapTransport: answering(projectRule(projectId, (project) => ({ ...project, ...overrides }))),
        },
      );
      const region = await screen.findByRole('region', { name: 'Project status' });
      await waitFor(() => expect(region.getAttribute('data-state')).not.toBe('loading'));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expectNoNonsense(document.body);
      if (region.getAttribute('data-state') !== 'polling')
        expect(within(region).queryByText('Loading the project status…')).toBeNull();
      for (const frame of document.querySelectorAll('iframe'))
        expect(frame.getAttribute('src') ?? '').toMatch(/^https?:/);
    });
  }
});

describe('AgentBuilder: the publish sheet with every integration answer nulled', () => {
  it('no crash, no nonsense', async () => {
    const rendered = renderWithMock(<AgentBuilder defaultSheet="ship" showPlans />, {
      store: {},
      provider: { externalUser: ada },
      wrapTransport: answering(
        connectionRule(Object.fromEntries(Object.keys(deploymentConnection()).map((key) => [key, null]))),
        codehostRule({
          ...Object.fromEntries(Object.keys(codehostConnection()).map((key) => [key, null])),
          external_user_id: 'ada',
        }),
        pageRule([repository(1, { name: null, default_branch: null })], {
          total_count: null,
          page: null,
          per_page: null,
        }),
      ),
    });
    await act(async () => {
      await rendered.store!.getState().generate({ prompt });
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const dialog = screen.queryByRole('dialog');
    expect(dialog).not.toBeNull();
    expectNoNonsense(dialog!);
    expect(within(dialog!).queryAllByText(/^Connected as\s*$/)).toHaveLength(0);
  });
});
