/** In-memory state of the mock Agent API: teams, tokens, projects, connections, repositories, plans. */
import type {
  CodehostConnection,
  DeploymentConnection,
  GenerationMode,
  KnownProjectStatus,
  Repository,
  SubscriptionPlan,
} from '../core/index.js';

/** A team: owns tokens, projects and a credit balance. */
export interface MockTeam {
  id: string;
  credits: number;
  suspended: boolean;
}

/** An API token as the service stores it. */
export interface MockToken {
  value: string;
  teamId: string;
  name: string;
  createdAt: number;
  /** Milliseconds since the epoch, or null for "No expiration". */
  expiresAt: number | null;
  revoked: boolean;
}

/** A repository linked to a project. */
export interface MockLinkedRepository {
  externalUserId: string;
  owner: string;
  name: string;
  branch: string;
}

/** A generated project. */
export interface MockProject {
  id: string;
  teamId: string;
  name: string;
  status: KnownProjectStatus;
  mode: GenerationMode;
  appUrl: string;
  /** Generated files in creation order; the value counts how often a file was written. */
  files: Map<string, number>;
  prompts: string[];
  createdAt: number;
  updatedAt: number;
  /** The deployment connection id linked per provider. */
  deploymentConnections: Map<string, number>;
  linkedRepository: MockLinkedRepository | null;
}

/** A stored deployment provider connection and the team it belongs to. */
export interface MockDeploymentConnection {
  teamId: string;
  /** The provider-side token; kept only to show that it never leaves the mock. */
  token: string;
  connection: DeploymentConnection;
}

/** A stored code-host connection and the team it belongs to. */
export interface MockCodehostConnection {
  teamId: string;
  connection: CodehostConnection & { installation_status: string };
}

/** A code-host install flow waiting for its callback. */
export interface MockPendingInstall {
  teamId: string;
  externalUserId: string;
  externalUserName: string;
  externalUserEmail: string;
  returnUrl: string;
  createdAt: number;
}

/** A plan as stored, payment-processor ids included (they never leave the mock). */
export interface MockPlanRecord extends SubscriptionPlan {
  sort_order: number;
  stripe_price_id: string;
  stripe_product_id: string;
}

/** One entry of the request log. */
export interface MockRequestRecord {
  method: string;
  /** The URL path, without the query. */
  path: string;
  at: number;
}

/** Everything the mock remembers; `reset()` replaces it with a fresh one. */
export interface MockState {
  teams: Map<string, MockTeam>;
  tokens: Map<string, MockToken>;
  projects: Map<string, MockProject>;
  deploymentConnections: MockDeploymentConnection[];
  codehostConnections: MockCodehostConnection[];
  /** Repositories by lower-cased code-host login, seeded on first use. */
  repositories: Map<string, Repository[]>;
  pendingInstalls: Map<string, MockPendingInstall>;
  /** Request times per token inside the rate-limit window. */
  rateLimitHits: Map<string, number[]>;
  nextId: number;
}

/** A fresh, empty state. */
export function createMockState(): MockState {
  return {
    teams: new Map(),
    tokens: new Map(),
    projects: new Map(),
    deploymentConnections: [],
    codehostConnections: [],
    repositories: new Map(),
    pendingInstalls: new Map(),
    rateLimitHits: new Map(),
    nextId: 1,
  };
}

/** Random lower-case hex from the platform's CSPRNG (Node and browsers). */
export function randomHex(bytes: number): string {
  const values = new Uint8Array(bytes);
  globalThis.crypto.getRandomValues(values);
  return Array.from(values, (value) => value.toString(16).padStart(2, '0')).join('');
}

/** 32-bit FNV-1a: a stable hash so derived names (accounts, logins, repositories) are deterministic. */
export function stableHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** How long a connection's credential lasts in this mock (its `expires_at`): 180 days, deployment and code host alike. */
export const connectionLifetimeMs = 180 * 24 * 60 * 60 * 1000;

/** An ISO 8601 timestamp: the format the mock uses for every `*_at` field. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

/** Lower-case, dash-separated, ASCII only: for logins, slugs and repository names. */
export function slugify(text: string): string {
  const slug = text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 39);
  return slug === '' ? 'user' : slug;
}

const repositoryAdjectives = [
  'acme',
  'blue',
  'rapid',
  'quiet',
  'bright',
  'open',
  'tiny',
  'north',
  'solid',
  'lucky',
  'amber',
  'swift',
];
const repositoryNouns = [
  'dashboard',
  'storefront',
  'portfolio',
  'blog',
  'api',
  'landing',
  'crm',
  'docs',
  'wiki',
  'tracker',
  'booking',
  'chat',
];

/** Where the mock's code host lives: a reserved test domain, so no link ever leads to a real account. */
export const codehostOrigin = 'https://codehost.agent-embed.test';

/** A repository item for a login and name. `private` and `permissions` are string-typed as in the reference. */
export function repositoryItem(login: string, name: string, isPrivate: boolean, defaultBranch = 'main'): Repository {
  const fullName = `${login}/${name}`;
  return {
    id: String(100_000 + (stableHash(fullName.toLowerCase()) % 900_000_000)),
    name,
    full_name: fullName,
    private: isPrivate ? 'true' : 'false',
    default_branch: defaultBranch,
    html_url: `${codehostOrigin}/${fullName}`,
    clone_url: `${codehostOrigin}/${fullName}.git`,
    permissions: 'admin',
  };
}

/** The deterministic repositories of a login: the same login always sees the same list. */
export function seedRepositories(login: string, count: number): Repository[] {
  const seed = stableHash(login.toLowerCase());
  const repositories: Repository[] = [];
  const used = new Set<string>();
  for (let index = 0; index < count; index++) {
    const adjective = repositoryAdjectives[(seed + index) % repositoryAdjectives.length] ?? 'acme';
    const noun = repositoryNouns[(seed + index * 5) % repositoryNouns.length] ?? 'app';
    let name = `${adjective}-${noun}`;
    if (used.has(name)) name = `${name}-${index + 1}`;
    used.add(name);
    repositories.push(repositoryItem(login, name, index % 3 === 0, index % 7 === 6 ? 'master' : 'main'));
  }
  return repositories;
}

/** The plans as stored: deliberately not in display order, with payment ids that must stay hidden. */
export function planRecords(): MockPlanRecord[] {
  return [
    {
      id: 3,
      name: 'Agency',
      slug: 'agency',
      description: 'For agencies building for many clients.',
      price_monthly: 199,
      currency: 'USD',
      credits: 5000,
      features: ['5,000 credits a month', 'Unlimited projects', 'Deployments and code-host push', 'Priority support'],
      sort_order: 3,
      stripe_price_id: 'price_mock_agency',
      stripe_product_id: 'prod_mock_agency',
    },
    {
      id: 1,
      name: 'Starter',
      slug: 'starter',
      description: 'Try the agent on a few projects.',
      price_monthly: 0,
      currency: 'USD',
      credits: 100,
      features: ['100 credits a month', '3 projects'],
      sort_order: 1,
      stripe_price_id: 'price_mock_starter',
      stripe_product_id: 'prod_mock_starter',
    },
    {
      id: 4,
      name: 'Enterprise',
      slug: 'enterprise',
      description: 'Custom limits and a dedicated contact.',
      price_monthly: null,
      currency: 'USD',
      credits: null,
      features: ['Custom credits', 'SSO', 'Dedicated support'],
      sort_order: 4,
      stripe_price_id: 'price_mock_enterprise',
      stripe_product_id: 'prod_mock_enterprise',
    },
    {
      id: 2,
      name: 'Pro',
      slug: 'pro',
      description: 'For freelancers shipping every week.',
      price_monthly: 49,
      currency: 'USD',
      credits: 1000,
      features: ['1,000 credits a month', 'Unlimited projects', 'Deployments'],
      sort_order: 2,
      stripe_price_id: 'price_mock_pro',
      stripe_product_id: 'prod_mock_pro',
    },
  ];
}

/** The public view of a plan: every field but the payment-processor ids. */
export function publicPlan(record: MockPlanRecord): SubscriptionPlan {
  const { stripe_price_id: _price, stripe_product_id: _product, ...plan } = record;
  return plan;
}
