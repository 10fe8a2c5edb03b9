/** The playground page: a fake agency product embedding agent-embed, plus a panel to trigger the mock's states. */
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { AgentBuilder, AgentProvider } from 'agent-embed';
import { ar } from 'agent-embed/locales/ar';
import { de } from 'agent-embed/locales/de';
import { es } from 'agent-embed/locales/es';
import { fr } from 'agent-embed/locales/fr';
import { ja } from 'agent-embed/locales/ja';
import { ptBR } from 'agent-embed/locales/pt-BR';
import 'agent-embed/styles.css';
import './playground.css';
import { playgroundQuota, playgroundUsers, sessionCookie, signedOutValue, userFromCookie } from './users.ts';

declare const __PLAYGROUND_BACKEND__: 'mock' | 'real';

/** Every built-in pack: `?locale=ja` shows the builder in Japanese, `?locale=ar` right to left. */
const locales = { de, fr, es, 'pt-BR': ptBR, ja, ar };
const capitalise = (name: string, tag: string) => name.charAt(0).toLocaleUpperCase(tag) + name.slice(1);
// Each language named in itself and capitalised as a menu item ("Français", "日本語").
const languages = Object.fromEntries(
  ['en', ...Object.keys(locales)].map((tag) => [
    tag,
    capitalise(new Intl.DisplayNames([tag], { type: 'language' }).of(tag) ?? tag, tag),
  ]),
);

/** The page's `?locale=` (the browser's language when there is none). */
const locale = new URLSearchParams(window.location.search).get('locale') ?? navigator.language;

function chooseLocale(next: string) {
  const url = new URL(window.location.href);
  url.searchParams.set('locale', next);
  window.location.assign(url);
}

function signIn(externalUserId: string | null) {
  document.cookie = `${sessionCookie}=${externalUserId ?? signedOutValue}; path=/; SameSite=Lax`;
  window.location.reload();
}

/** The whole page follows the Theme select, not only the embed: the host page's colours live in playground.css. */
function usePageTheme(colorScheme: 'light' | 'dark' | 'auto') {
  useEffect(() => {
    document.documentElement.dataset.theme = colorScheme;
  }, [colorScheme]);
}

interface Scenario {
  label: string;
  path: string;
  body?: unknown;
}

const scenarios: Scenario[] = [
  { label: 'Plenty of credits', path: '/credits', body: { credits: 1000 } },
  { label: 'No credits', path: '/credits', body: { credits: 0 } },
  { label: 'Credits run out mid-build', path: '/credits', body: { credits: 3 } },
  { label: 'Suspend the team', path: '/suspend', body: { suspended: true } },
  { label: 'Lift the suspension', path: '/suspend', body: { suspended: false } },
  { label: 'Expire the API token', path: '/expire-token' },
  { label: 'Drop the next stream', path: '/faults', body: { kind: 'drop_after', events: 4 } },
  { label: 'Malformed line in the next stream', path: '/faults', body: { kind: 'malformed_line' } },
  { label: 'Next request: HTTP 500', path: '/faults', body: { kind: 'http_500' } },
  { label: 'Next request: 429', path: '/faults', body: { kind: 'rate_limited', retryAfterSeconds: 20 } },
  { label: 'Next deploy: HTTP 500', path: '/faults', body: { kind: 'http_500', route: 'deploy' } },
  { label: 'Next repository page: HTTP 500', path: '/faults', body: { kind: 'http_500', route: 'listRepositories' } },
  { label: 'Reset the mock (token valid again)', path: '/reset' },
];

/** Scenarios about the signed-in end user's own connections. */
function userScenarios(externalUserId: string): Scenario[] {
  return [
    {
      label: 'Suspend my code-host installation',
      path: '/codehost/installation',
      body: { externalUserId, status: 'suspended' },
    },
    {
      label: 'Reactivate my code-host installation',
      path: '/codehost/installation',
      body: { externalUserId, status: 'active' },
    },
  ];
}

function ScenarioPanel({ externalUserId }: { externalUserId: string | undefined }) {
  const [status, setStatus] = useState('');
  const available = externalUserId === undefined ? scenarios : [...scenarios, ...userScenarios(externalUserId)];
  async function run(scenario: Scenario) {
    const response = await fetch(`/playground/mock${scenario.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(scenario.body ?? {}),
    });
    if (response.ok && scenario.path === '/reset') {
      // The mock and the proxy forgot everything; so does this page (the builder's last project in
      // sessionStorage, connections and projects it read), or it would show what no longer exists.
      sessionStorage.clear();
      window.location.reload();
      return;
    }
    setStatus(response.ok ? `Done: ${scenario.label}` : `Failed (${response.status}): ${scenario.label}`);
  }
  return (
    <aside className="playground-scenarios" aria-labelledby="scenarios-title">
      <h2 id="scenarios-title">Mock scenarios</h2>
      {__PLAYGROUND_BACKEND__ === 'mock' ? (
        <>
          <div className="playground-scenario-buttons">
            {available.map((scenario) => (
              <button key={scenario.label} type="button" onClick={() => void run(scenario)}>
                {scenario.label}
              </button>
            ))}
          </div>
          <p role="status">{status}</p>
        </>
      ) : (
        <p>Connected to a real Agent API: scenarios need the built-in mock.</p>
      )}
    </aside>
  );
}

/** The fake agency's checkout: choosing a plan tops the mock's credits up, so "Buy credits" leads somewhere. */
function choosePlan() {
  void fetch('/playground/mock/credits', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ credits: 1000 }),
  });
}

function App() {
  const user = userFromCookie(document.cookie);
  const [colorScheme, setColorScheme] = useState<'light' | 'dark' | 'auto'>('auto');
  usePageTheme(colorScheme);
  return (
    <div className="playground">
      <header className="playground-header">
        <h1 className="playground-title">Acme Sites</h1> <span>(a fake agency product)</span>
        <label>
          Signed in as{' '}
          <select value={user?.externalUserId ?? ''} onChange={(event) => signIn(event.target.value || null)}>
            <option value="">nobody</option>
            {playgroundUsers.map((candidate) => (
              <option key={candidate.externalUserId} value={candidate.externalUserId}>
                {candidate.name}
                {playgroundQuota(candidate) === undefined
                  ? ''
                  : ` (free plan: ${playgroundQuota(candidate)?.generations} builds a day)`}
              </option>
            ))}
          </select>
        </label>
        <label>
          Theme{' '}
          <select
            value={colorScheme}
            onChange={(event) => setColorScheme(event.target.value as 'light' | 'dark' | 'auto')}
          >
            <option value="auto">auto</option>
            <option value="light">light</option>
            <option value="dark">dark</option>
          </select>
        </label>
        <label>
          Language{' '}
          <select value={locale in languages ? locale : 'en'} onChange={(event) => chooseLocale(event.target.value)}>
            {Object.entries(languages).map(([value, name]) => (
              <option key={value} value={value}>
                {name}
              </option>
            ))}
          </select>
        </label>
      </header>
      <div className="playground-body">
        <main aria-label="App builder">
          {user ? (
            <AgentProvider
              key={user.externalUserId}
              baseUrl="/api/agent"
              externalUser={{ id: user.externalUserId, name: user.name, email: user.email }}
              colorScheme={colorScheme}
              locale={locale}
              locales={locales}
            >
              <AgentBuilder showPlans {...(__PLAYGROUND_BACKEND__ === 'mock' ? { onSelectPlan: choosePlan } : {})} />
            </AgentProvider>
          ) : (
            <p>Sign in as one of the fake end users to start building.</p>
          )}
        </main>
        <ScenarioPanel externalUserId={user?.externalUserId} />
      </div>
    </div>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
