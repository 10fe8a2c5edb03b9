/**
 * Behind a proxy other than the library's, any field of an answer may carry any JSON type (an object, a number, a
 * boolean where a string is typed, and back). No component crashes (in render or in an event handler) or shows
 * `[object Object]`, `null`, `undefined`, `NaN`, or a time made up from nothing.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AgentBuilder,
  AppPreview,
  CodehostConnect,
  Conversation,
  DeployButton,
  PlanList,
  ProjectList,
  ProjectStatus,
  RepoPicker,
  UsageMeter,
  type ExternalUser,
} from 'agent-embed';
import { answering, envelope, projectInMock, rule, shownText, type Rule } from './rewritten-answers.js';
import { cleanupRendered, renderWithMock } from './render-with-mock.js';

const ada: ExternalUser = { id: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' };
const prompt = 'A portfolio site for a ceramic artist';
const at = '2024-05-01T10:00:00.000Z';
const nonsense = /\bnull\b|\bundefined\b|\bNaN\b|Invalid Date|\[object Object\]/;

/** Errors React reports (a render error, "Objects are not valid as a React child") and uncaught handler errors. */
let reported: unknown[] = [];
const onError = (event: ErrorEvent) => reported.push(event.error ?? event.message);
const onRejection = (event: PromiseRejectionEvent) => reported.push(event.reason);
let consoleError: ReturnType<typeof vi.spyOn> | undefined;
function watchErrors() {
  reported = [];
  window.addEventListener('error', onError);
  window.addEventListener('unhandledrejection', onRejection);
  consoleError = vi.spyOn(console, 'error').mockImplementation((first: unknown) => {
    if (/not valid as a React child|error occurred in|Uncaught|Error:/.test(String(first))) reported.push(first);
  });
}
afterEach(() => {
  window.removeEventListener('error', onError);
  window.removeEventListener('unhandledrejection', onRejection);
  consoleError?.mockRestore();
  cleanupRendered();
});

function expectGood(element: Element = document.body) {
  expect(reported.map((error) => (error instanceof Error ? error.message : String(error)))).toEqual([]);
  expect(shownText(element)).not.toMatch(nonsense);
}

const settle = (ms = 60) => new Promise((resolve) => setTimeout(resolve, ms));

/** The wrong-typed values every field is probed with (an array renders as an object does). */
const values: [string, unknown][] = [
  ['{}', {}],
  ['5', 5],
  ['false', false],
];
/** `[label, answer]`: each field of `good` set to each value, then the whole data set to each value. */
const fieldCases = (good: Record<string, unknown>, fields = Object.keys(good)): [string, unknown][] => [
  ...fields.flatMap((field) =>
    values.map(([label, value]): [string, unknown] => [`${field} ${label}`, { ...good, [field]: value }]),
  ),
  ...values.map(([label, value]): [string, unknown] => [`data ${label}`, value]),
];

// Connections: deployment (DeployButton) and code host (CodehostConnect), listing entry and detailed view.
const deploymentConnection = (overrides: Record<string, unknown> = {}) => ({
  ...{ id: 1, provider: 'vercel', provider_name: 'Vercel', external_user_id: 'ada', provider_account_id: 'acc_1' },
  ...{ provider_account_name: 'Ada (Vercel)', provider_account_email: 'ada@example.com', expires_at: null },
  ...{ last_used_at: null, connected_at: at, updated_at: at, metadata: { slug: 'ada' }, ...overrides },
});
const codehostConnection = (overrides: Record<string, unknown> = {}) => ({
  ...{ id: 1, external_user_id: 'ada', external_user_name: 'Ada Lovelace', external_user_email: 'ada@example.com' },
  ...{ codehost_user_id: '42', codehost_login: 'ada', provider: 'github', installation_id: '7', target_type: 'User' },
  ...{ user_authorized: true, expires_at: null, connected_at: at, updated_at: at, installation_status: 'active' },
  ...overrides,
});
const listAndDetail = (path: RegExp, list: unknown[], detail: unknown) =>
  rule('GET', path, (_real, request) => envelope(request.path.endsWith('/ada') ? detail : list));
const deploymentPath = /^\/deployments\/vercel\/connections(\/ada)?$/;
const codehostPath = /^\/codehost\/connections(\/ada)?$/;
const connectionRule = (overrides: Record<string, unknown>) =>
  listAndDetail(deploymentPath, [deploymentConnection()], deploymentConnection(overrides));
const codehostRule = (overrides: Record<string, unknown>) =>
  listAndDetail(codehostPath, [codehostConnection()], codehostConnection(overrides));

describe('DeployButton and CodehostConnect: a connection field, entry or data of the wrong type', () => {
  const routes = [
    ['DeployButton', deploymentPath, deploymentConnection, 'Publish to the web'],
    ['CodehostConnect', codehostPath, codehostConnection, 'Save the code to GitHub'],
  ] as const;
  for (const [component, path, connection, heading] of routes) {
    const fields = Object.keys(connection()).filter((key) => key !== 'external_user_id');
    const cases: [string, unknown[], unknown][] = [
      // The detailed view is what the screen shows; the listing only finds the user's entry.
      ...fieldCases(connection(), fields).map(([label, data]): [string, unknown[], unknown] => [
        `detail ${label}`,
        [connection()],
        data,
      ]),
      ...[...values, ['null', null] as [string, unknown]].map(([label, value]): [string, unknown[], unknown] => [
        `a list entry ${label} beside the user's`,
        [value, connection()],
        connection(),
      ]),
    ];
    for (const [label, list, detail] of cases)
      it(`${component} ${label}: no crash, no nonsense, no error state`, async () => {
        watchErrors();
        const ui: ReactNode =
          component === 'DeployButton' ? (
            <DeployButton provider="vercel" />
          ) : (
            <CodehostConnect navigate={vi.fn()} returnUrl="http://localhost:3000/" />
          );
        renderWithMock(ui, {
          provider: { externalUser: ada },
          wrapTransport: answering(listAndDetail(path, list, detail)),
        });
        const region = await screen.findByRole('region', { name: heading });
        await waitFor(() => expect(region.getAttribute('data-state')).not.toBe('loading'));
        await settle();
        expectGood(region);
        expect(within(region).queryByText(/^Connected as\s*$/)).toBeNull();
        expect(region.getAttribute('data-state')).not.toBe('error');
        // A number is no timestamp (`Date.parse(5)` is a day of 2001): the connection has not expired.
        if (label.includes('expires_at')) expect(region.getAttribute('data-state')).not.toBe('expired');
      });
  }
});

describe('DeployButton: a deploy result field (or the whole data) of the wrong type', () => {
  const good = { deployment_id: 'dpl_1', status: 'ready', url: 'https://ada-shop.vercel.app', provider: 'vercel' };
  for (const [label, data] of fieldCases(good))
    it(`${label}: no crash, no nonsense, the button still usable`, async () => {
      watchErrors();
      const { api, projectId } = await projectInMock(ada, prompt);
      const rendered = renderWithMock(<DeployButton provider="vercel" projectId={projectId} />, {
        mock: { api },
        provider: { externalUser: ada },
        wrapTransport: answering(
          connectionRule({}),
          rule('POST', /\/deploy$/, () => envelope(data)),
        ),
      });
      const region = await screen.findByRole('region', { name: 'Publish to the web' });
      const button = await within(region).findByRole('button', { name: 'Deploy to Vercel' });
      await waitFor(() => expect(button).toBeEnabled());
      await rendered.user.click(button);
      await waitFor(() => expect(region.getAttribute('data-state')).toMatch(/deployed|failed/));
      await settle();
      expectGood(region);
      expect(within(region).getByRole('button', { name: /Deploy to Vercel|Redeploy/ })).toBeEnabled();
    });
});

describe('CodehostConnect: a start answer field (or the whole data) of the wrong type', () => {
  const good = { redirect_url: 'https://github.com/apps/x/installations/new?state=s', state: 's' };
  for (const [label, data] of fieldCases(good))
    it(`${label}: no crash, no nonsense, no navigation to a non-URL, still usable`, async () => {
      watchErrors();
      const navigate = vi.fn();
      const rendered = renderWithMock(<CodehostConnect navigate={navigate} returnUrl="http://localhost:3000/" />, {
        provider: { externalUser: ada },
        wrapTransport: answering(
          rule('GET', /^\/codehost\/connections$/, () => envelope([])),
          rule('POST', /^\/codehost\/connect\/start$/, () => envelope(data)),
        ),
      });
      const region = await screen.findByRole('region', { name: 'Save the code to GitHub' });
      await rendered.user.click(await within(region).findByRole('button', { name: 'Connect GitHub' }));
      await waitFor(() => expect(region.getAttribute('data-state')).not.toBe('starting'));
      await settle();
      expectGood(region);
      for (const [url] of navigate.mock.calls) expect(String(url)).toMatch(/^https:\/\/github\.com\//);
      if (navigate.mock.calls.length === 0)
        expect(within(region).getByRole('button', { name: 'Connect GitHub' })).toBeEnabled();
    });
});

// RepoPicker: repository pages, link and push.
const repository = (index: number, overrides: Record<string, unknown> = {}) => ({
  ...{ id: index, name: `repo-${index}`, full_name: `ada/repo-${index}`, private: false, default_branch: 'main' },
  ...{ html_url: `https://github.com/ada/repo-${index}`, clone_url: `https://github.com/ada/repo-${index}.git` },
  ...{ permissions: { admin: true, push: true, pull: true }, ...overrides },
});
const pageRule = (items: unknown, meta: unknown) =>
  rule('GET', /^\/codehost\/connections\/ada\/repositories$/, () => envelope({ items, meta }));
const meta = { total_count: 2, page: 1, per_page: 30 };

function renderPicker(rules: Rule[], projectId?: string, api?: unknown) {
  const rendered = renderWithMock(<RepoPicker {...(projectId === undefined ? {} : { projectId })} />, {
    provider: { externalUser: ada },
    ...(api === undefined ? {} : { mock: { api: api as never } }),
    wrapTransport: answering(...rules),
  });
  return { ...rendered, region: () => screen.getByRole('region', { name: 'Repository' }) };
}

describe('RepoPicker: a repository page field of the wrong type', () => {
  const two = [repository(1), repository(2)];
  const cases: [string, unknown, unknown][] = [
    ...fieldCases(repository(1))
      .filter(([label]) => !label.startsWith('data '))
      .map(([label, item]): [string, unknown, unknown] => [`item ${label}`, [item, repository(2)], meta]),
    ...fieldCases(meta).map(([label, data]): [string, unknown, unknown] => [`meta ${label}`, two, data]),
    ...values.map(([label, value]): [string, unknown, unknown] => [
      `items ${label}`,
      value,
      { ...meta, total_count: null },
    ]),
    // The count says 2 while the items (of the wrong type) give none: not a "Loading…" that never ends.
    ['items {} with total_count 2', {}, meta],
  ];
  for (const [label, items, pageMeta] of cases)
    it(`${label}: no crash, no nonsense, searchable`, async () => {
      watchErrors();
      const { region, user } = renderPicker([codehostRule({}), pageRule(items, pageMeta)]);
      await waitFor(() => expect(region().getAttribute('data-state')).not.toBe('loading'));
      expectGood(region());
      const search = within(region()).queryByRole('searchbox');
      if (search !== null) await user.type(search, 'repo');
      const options = within(region()).queryAllByRole('option');
      if (options.length > 0) await user.click(options[0]!);
      await settle();
      expectGood(region());
    });
});

/** A branch detail shows a branch, never the branch icon beside nothing. */
function expectNoEmptyBranch(region: HTMLElement) {
  for (const detail of region.querySelectorAll('.ae-outcome-meta .ae-inline'))
    expect(detail.textContent?.replace('Branch', '').trim()).not.toBe('');
}

describe('RepoPicker: a link or push result field (or the whole data) of the wrong type', () => {
  const url = 'https://github.com/ada/repo-1';
  const good = {
    link: { project_id: 'p', codehost_login: 'ada', repo_url: url, branch: 'main' },
    push: { repo_url: url, codehost_login: 'ada', branch: 'main', repo_created: false },
  };
  const cases = (['link', 'push'] as const).flatMap((route) =>
    fieldCases(good[route]).map(([label, data]) => [route, label, data] as const),
  );
  for (const [route, label, data] of cases)
    it(`${route} ${label}: no crash, no nonsense, still usable`, async () => {
      watchErrors();
      const { api, projectId } = await projectInMock(ada, prompt);
      const answers = { link: envelope(good.link), push: envelope(good.push), [route]: envelope(data) };
      // Settled, or the picker is gone (a render error unmounts the tree).
      const settled = (action: string) => {
        const found = screen.queryByRole('region', { name: 'Repository' });
        return found === null || /success|error/.test(found.getAttribute(`data-${action}`) ?? '');
      };
      const { region, user } = renderPicker(
        [
          codehostRule({}),
          pageRule([repository(1)], { ...meta, total_count: 1 }),
          rule('POST', /\/link$/, () => answers.link),
          rule('POST', /\/push$/, () => answers.push),
        ],
        projectId,
        api,
      );
      await waitFor(() => expect(region()).toHaveAttribute('data-state', 'ready'));
      await user.click(within(region()).getAllByRole('option')[0]!);
      await user.click(within(region()).getByRole('button', { name: 'Use ada/repo-1' }));
      await waitFor(() => expect(settled('link')).toBe(true));
      await settle();
      expectGood(document.body);
      expectNoEmptyBranch(region());
      await user.click(within(region()).getByRole('button', { name: 'Save the code to ada/repo-1' }));
      await waitFor(() => expect(settled('push')).toBe(true));
      await settle();
      expectGood(document.body);
      expectNoEmptyBranch(region());
    });
});

describe('PlanList: a plan field (or the whole data) of the wrong type', () => {
  const plan = { id: 1, name: 'Pro', slug: 'pro', description: 'For teams', price: 49, price_monthly: 49 };
  Object.assign(plan, { currency: 'USD', credits: 100, features: ['A', 'B'], sort_order: 1 });
  const cases: [string, unknown][] = [
    ...fieldCases(plan).map(([label, data]): [string, unknown] =>
      label.startsWith('data ') ? [label, data] : [label, [data, { ...plan, id: 2, name: 'Team' }]],
    ),
    ['features [{}, 5, true, []]', [{ ...plan, features: [{}, 5, true, [], 'A'] }]],
  ];
  for (const [label, plans] of cases)
    it(`${label}: no crash, no nonsense, choose buttons named and usable`, async () => {
      watchErrors();
      const rendered = renderWithMock(<PlanList onSelect={vi.fn()} />, {
        provider: { externalUser: ada },
        wrapTransport: answering(rule('GET', /^\/subscription-plans$/, () => envelope(plans))),
      });
      const region = await screen.findByRole('region', { name: 'Plans' });
      await waitFor(() => expect(region.getAttribute('data-state')).not.toBe('loading'));
      expectGood(region);
      for (const button of within(region).queryAllByRole('button')) {
        expect(button.textContent ?? '').not.toMatch(/^Choose\s*$/);
        await rendered.user.click(button);
      }
      expectGood(region);
    });
});

describe('ProjectStatus and AppPreview: a status answer field of the wrong type', () => {
  const fields = { name: 'x', app_url: 'x', project_status: 'x', project_id: 'x', status: true };
  for (const [label, override] of fieldCases(fields).filter(([name]) => !name.startsWith('data ')))
    it(`${label}: no crash, no nonsense, iframe only http(s)`, async () => {
      watchErrors();
      const { api, projectId } = await projectInMock(ada, prompt);
      const field = label.split(' ')[0]!;
      const value = (override as Record<string, unknown>)[field];
      renderWithMock(
        <>
          <ProjectStatus projectId={projectId} />
          <AppPreview projectId={projectId} />
        </>,
        {
          mock: { api },
          provider: { externalUser: ada },
          wrapTransport: answering(
            rule('GET', new RegExp(`^/agent/project/${projectId}$`), async (real) => ({
              ...((await real()) as object),
              [field]: value,
            })),
          ),
        },
      );
      const region = await screen.findByRole('region', { name: 'Project status' });
      await waitFor(() => expect(region.getAttribute('data-state')).not.toBe('loading'));
      await settle(100);
      expectGood(document.body);
      for (const frame of document.querySelectorAll('iframe'))
        expect(frame.getAttribute('src') ?? '').toMatch(/^https?:/);
    });
});

describe("AgentBuilder's publish sheet", () => {
  const every = (fields: Record<string, unknown>, value: unknown) =>
    Object.fromEntries(Object.keys(fields).map((key) => [key, key === 'external_user_id' ? 'ada' : value]));
  for (const [label, value] of values)
    it(`every integration field ${label}: no crash, no nonsense`, async () => {
      watchErrors();
      const rendered = renderWithMock(<AgentBuilder defaultSheet="ship" showPlans />, {
        store: {},
        provider: { externalUser: ada },
        wrapTransport: answering(
          connectionRule(every(deploymentConnection(), value)),
          codehostRule(every(codehostConnection(), value)),
          pageRule([repository(1, { name: value, default_branch: value, private: value })], { total_count: value }),
        ),
      });
      await act(async () => {
        await rendered.store!.getState().generate({ prompt });
      });
      await settle(200);
      expect(screen.queryByRole('dialog')).not.toBeNull();
      expectGood(screen.getByRole('dialog'));
    });

  it('a push answered with branch {}: the builder stays on screen, no crash', async () => {
    watchErrors();
    const pushed = { repo_url: '', codehost_login: 'ada', branch: {}, repo_created: true };
    const rendered = renderWithMock(<AgentBuilder defaultSheet="ship" />, {
      store: {},
      provider: { externalUser: ada },
      wrapTransport: answering(
        codehostRule({}),
        pageRule([repository(1)], { ...meta, total_count: 1 }),
        rule('POST', /\/push$/, () => envelope(pushed)),
      ),
    });
    await act(async () => {
      await rendered.store!.getState().generate({ prompt });
    });
    const picker = within(await screen.findByRole('dialog')).getByRole('region', { name: 'Repository' });
    await waitFor(() => expect(picker).toHaveAttribute('data-state', 'ready'));
    await rendered.user.type(within(picker).getByLabelText('New repository name'), 'ada/my-app');
    await rendered.user.click(within(picker).getByRole('button', { name: 'Create and save' }));
    await settle();
    expectGood(document.body);
    expect(screen.queryByRole('dialog')).not.toBeNull();
  });
});

describe("the proxy's own answers (read in proxy-answers.ts) with fields of the wrong type", () => {
  for (const [label, value] of values) {
    const entry = { project_id: 'p1', name: value, app_url: value, project_status: value, created_at: value };
    const turn = { kind: 'generate', prompt, mode: value, at: value };
    const outcome = { status: 'completed', files_created: value, files_modified: value, steps: value, message: value };
    const probes: [string, (projectId: string) => ReactNode, RegExp, unknown][] = [
      ['ProjectList', () => <ProjectList />, /^\/projects$/, { projects: [{ ...entry, updated_at: value }, value] }],
      [
        'Conversation',
        (id) => <Conversation projectId={id} />,
        /\/conversation$/,
        { turns: [{ ...turn, outcome }, value, { ...turn, outcome: value }] },
      ],
      ['UsageMeter', () => <UsageMeter />, /^\/usage$/, { used: value, limit: value, resets_at: value, period: value }],
    ];
    for (const [component, ui, path, body] of probes)
      it(`${component}, every field ${label}: no crash, no nonsense`, async () => {
        watchErrors();
        const { api, projectId } = await projectInMock(ada, prompt);
        renderWithMock(ui(projectId), {
          mock: { api },
          provider: { externalUser: ada },
          wrapTransport: answering(rule('GET', path, () => body)),
        });
        await settle(150);
        expectGood(document.body);
        // No time made up from nothing (the epoch), no separator beside nothing.
        expect(document.querySelector('time[datetime^="1970-01-01"]')).toBeNull();
        for (const meta of document.querySelectorAll('.ae-project-item-meta'))
          expect(meta.textContent ?? '').toMatch(/\w/);
      });
  }
});
