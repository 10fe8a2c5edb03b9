/**
 * What the browser may see of an upstream answer: the browser's answer is built field by field from the
 * spec's fields (an allow-list per route), never passed through. Unknown keys, counts and second lists are
 * dropped; a listing keeps only the signed-in user's items; a shape the proxy cannot read is refused.
 */
import { parseHttpUrl } from '../core/index.js';

/** How one field is kept: its type, or the allow-list of a nested object or list. Null is kept for any field. */
export type FieldShape =
  | 'string'
  /** An http(s) address: any other string (a `javascript:` one) is null, so it never becomes a link, frame or redirect. */
  | 'url'
  | 'number'
  | 'boolean'
  /** A string, number or boolean (the spec leaves the type open, e.g. `private`). */
  | 'scalar'
  | 'strings'
  /** Validation errors: field names mapped to lists of messages. */
  | 'errors'
  | { object: FieldShapes }
  | { list: FieldShapes }
  | { either: readonly FieldShape[] };

/** The allow-list of an object's fields. */
export type FieldShapes = Readonly<Record<string, FieldShape>>;

/** How a route's success answer is built. */
export type AnswerShape =
  /** An agent object at the top level (`{ status, project_id, … }`). */
  | { kind: 'object'; fields: FieldShapes }
  /**
   * The envelope with one resource as `data`; `owned` resources must name the signed-in user; `redirect` names the
   * field the end user is sent to, which must lead to one of `BuildOptions.installOrigins`.
   */
  | { kind: 'envelope'; data: FieldShapes; owned?: boolean; redirect?: string }
  /** The envelope with a list of resources as `data`; `owned` keeps only the signed-in user's items. */
  | { kind: 'list'; item: FieldShapes; owned?: boolean }
  /** The repository listing: `data.items` and `data.meta` (the meta is the user's own: the path names the user). */
  | { kind: 'page'; item: FieldShapes; meta: FieldShapes }
  /** An event stream; a JSON success answer is not expected. */
  | { kind: 'stream' };

const timestamp = 'string';

/** The spec's Project (status endpoint). */
export const projectFields: FieldShapes = {
  status: 'boolean',
  project_id: 'string',
  app_url: 'url',
  project_status: 'string',
  name: 'string',
};

/** The spec's deployment provider connection. */
export const deploymentConnectionFields: FieldShapes = {
  id: 'scalar',
  provider: 'string',
  provider_name: 'string',
  external_user_id: 'string',
  provider_account_id: 'string',
  provider_account_name: 'string',
  provider_account_email: 'string',
  expires_at: timestamp,
  last_used_at: timestamp,
  connected_at: timestamp,
  updated_at: timestamp,
  metadata: { object: { slug: 'string' } },
};

/** The spec's code-hosting connection (the detailed view adds the installation status). */
export const codehostConnectionFields: FieldShapes = {
  id: 'scalar',
  external_user_id: 'string',
  external_user_name: 'string',
  external_user_email: 'string',
  codehost_user_id: 'string',
  codehost_login: 'string',
  provider: 'string',
  installation_id: 'scalar',
  target_type: 'string',
  user_authorized: 'boolean',
  expires_at: timestamp,
  connected_at: timestamp,
  updated_at: timestamp,
  installation_status: 'string',
};

/** The spec's repository item. */
export const repositoryFields: FieldShapes = {
  id: 'scalar',
  name: 'string',
  full_name: 'string',
  private: 'scalar',
  default_branch: 'string',
  html_url: 'url',
  clone_url: 'url',
  permissions: { either: ['scalar', { object: { admin: 'boolean', push: 'boolean', pull: 'boolean' } }] },
};

/** A deploy result (not shown in the spec: `deployment_id`, `status`, `url` as the mock answers, and what it adds). */
export const deploymentFields: FieldShapes = {
  deployment_id: 'scalar',
  status: 'string',
  url: 'url',
  provider: 'string',
  project_id: 'string',
  created_at: timestamp,
};

/** A subscription plan (fields not shown in the spec beyond ordering; payment-processor ids never pass). */
export const planFields: FieldShapes = {
  id: 'scalar',
  name: 'string',
  slug: 'string',
  description: 'string',
  price: 'scalar',
  price_monthly: 'scalar',
  currency: 'string',
  credits: 'number',
  features: 'strings',
  sort_order: 'number',
};

/** The answer shape of each route (its success answers; failures are built by `buildFailureAnswer`). */
export const answers = {
  stream: { kind: 'stream' },
  project: { kind: 'object', fields: projectFields },
  deploymentConnection: { kind: 'envelope', data: deploymentConnectionFields, owned: true },
  deploymentConnections: { kind: 'list', item: deploymentConnectionFields, owned: true },
  deployment: { kind: 'envelope', data: deploymentFields },
  codehostStart: { kind: 'envelope', data: { redirect_url: 'url', state: 'string' }, redirect: 'redirect_url' },
  codehostConnection: { kind: 'envelope', data: codehostConnectionFields, owned: true },
  codehostConnections: { kind: 'list', item: codehostConnectionFields, owned: true },
  repositories: {
    kind: 'page',
    item: repositoryFields,
    meta: { total_count: 'number', page: 'number', per_page: 'number' },
  },
  link: {
    kind: 'envelope',
    data: { project_id: 'string', codehost_login: 'string', repo_url: 'url', branch: 'string' },
  },
  push: {
    kind: 'envelope',
    data: { repo_url: 'url', codehost_login: 'string', branch: 'string', repo_created: 'boolean' },
  },
  plans: { kind: 'list', item: planFields },
} as const satisfies Record<string, AnswerShape>;

/** An upstream answer the proxy cannot read as its route's shape (the reason goes to the log only). */
export class UnreadableAnswer extends Error {}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const fieldNamePattern = /^[A-Za-z0-9_.-]{1,64}$/;

function keep(value: unknown, shape: FieldShape, clean: (text: string) => string): Json | undefined {
  if (value === null) return null;
  if (typeof shape === 'object') {
    if ('either' in shape) {
      for (const option of shape.either) {
        const kept = keep(value, option, clean);
        if (kept !== undefined) return kept;
      }
      return undefined;
    }
    if ('object' in shape) return isRecord(value) ? pick(value, shape.object, clean) : undefined;
    return Array.isArray(value) ? value.filter(isRecord).map((item) => pick(item, shape.list, clean)) : undefined;
  }
  switch (shape) {
    case 'string':
      return typeof value === 'string' ? clean(value) : undefined;
    case 'url':
      return typeof value === 'string' ? httpAddressOrNull(value, clean) : undefined;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
    case 'boolean':
      return typeof value === 'boolean' ? value : undefined;
    case 'scalar':
      if (typeof value === 'string') return clean(value);
      return typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value)) ? value : undefined;
    case 'strings':
      return Array.isArray(value) ? value.filter((item) => typeof item === 'string').map(clean) : undefined;
    case 'errors': {
      if (!isRecord(value)) return undefined;
      const errors: Record<string, Json> = {};
      for (const [field, messages] of Object.entries(value)) {
        if (!fieldNamePattern.test(field) || !Array.isArray(messages)) continue;
        errors[clean(field)] = messages.filter((item) => typeof item === 'string').map(clean);
      }
      return errors;
    }
    default:
      return shape satisfies never;
  }
}

/** An address as the browser may get it: an http(s) one as it is (cleaned), any other scheme null. */
export function httpAddressOrNull(value: string, clean: (text: string) => string = (text) => text): string | null {
  return parseHttpUrl(value) === undefined ? null : clean(value);
}

/** The allow-listed fields of one object, in the allow-list's order. */
export function pick(value: Record<string, unknown>, fields: FieldShapes, clean: (text: string) => string) {
  const picked: Record<string, Json> = {};
  for (const [name, shape] of Object.entries(fields)) {
    if (!Object.hasOwn(value, name)) continue;
    const kept = keep(value[name], shape, clean);
    if (kept !== undefined) picked[name] = kept;
  }
  return picked;
}

/** Keys a listing's list may sit under inside `data` (the spec does not show listing shapes). */
const listKeys = new Set(['items', 'connections', 'plans']);

/**
 * Why a listing's lists are unreadable, for the log. Only the expected keys are named: any other key is the
 * upstream's own text, of any size and any characters, so it is only counted.
 */
function listsReason(keys: readonly string[]): string {
  if (keys.length === 0) return 'the listing holds no list';
  const known = keys.filter((key) => listKeys.has(key));
  const unexpected = keys.length - known.length;
  const under = [...known, ...(unexpected === 0 ? [] : [`${unexpected} unexpected key${unexpected === 1 ? '' : 's'}`])];
  return `the listing holds ${keys.length === 1 ? 'a list' : `${keys.length} lists`} under ${under.join(' and ')}`;
}

/** The list of a listing answer: a bare array, `data`, or the one known list under `data`; anything else is unreadable. */
function listOf(body: unknown): unknown[] {
  if (Array.isArray(body)) return body;
  if (!isRecord(body)) throw new UnreadableAnswer('the listing is not an object or array');
  if (Array.isArray(body.data)) return body.data;
  if (!isRecord(body.data)) throw new UnreadableAnswer('the listing has no data');
  const lists = Object.entries(body.data).filter(([, value]) => Array.isArray(value));
  const [first] = lists;
  if (lists.length !== 1 || first === undefined || !listKeys.has(first[0]))
    throw new UnreadableAnswer(listsReason(lists.map(([key]) => key)));
  return first[1] as unknown[];
}

function messageOf(body: unknown, clean: (text: string) => string): string {
  return isRecord(body) && typeof body.message === 'string' ? clean(body.message) : '';
}

/**
 * The message of a success envelope without data (`data` null, absent, or PHP's empty array `[]`: the spec allows
 * `data: null`), or undefined for any other answer; the caller has read the body as a success (`isFailureBody`).
 * After a deploy, push or link, such an answer says it happened.
 */
export function dataLessSuccessMessage(body: unknown, clean: (text: string) => string): string | undefined {
  if (!isRecord(body)) return undefined;
  const { data } = body;
  const dataLess = data === null || data === undefined || (Array.isArray(data) && data.length === 0);
  return dataLess ? messageOf(body, clean) : undefined;
}

/** Options of the answer builders. */
export interface BuildOptions {
  /** The signed-in end user, for owned resources. */
  userId: string;
  /** Applied to every string that goes out (the token redactor). */
  clean(text: string): string;
  /** The origins a `redirect` field may lead to (`codehostInstallOrigins`); none without it. */
  installOrigins?: ReadonlySet<string> | undefined;
  /**
   * The project the request's path names, when the user owns it. An answer whose allow-list keeps `project_id` and
   * names another project is refused when it only reads (a status); after an action that happened upstream (a deploy,
   * a link) the field is dropped instead, through `onDropped`, as a 502 would invite the action a second time.
   */
  projectId?: string | undefined;
  /** Why a field was dropped from an answer that is relayed all the same (for the log). */
  onDropped?: ((reason: string) => void) | undefined;
}

const otherProjectReason = 'the answer names another project than the one asked about';

/** The browser's answer to an upstream success (2xx) JSON answer; throws `UnreadableAnswer`. */
export function buildSuccessAnswer(shape: AnswerShape, body: unknown, options: BuildOptions): Json {
  const { userId, clean, projectId } = options;
  const ownedBy = (item: Record<string, unknown>) => item.external_user_id === userId;
  // The user owns the path's project, not the one a broken or hostile upstream names instead (where the allow-list
  // keeps a `project_id` at all: any other answer's is dropped with its unknown keys).
  const namesOtherProject = (item: Record<string, unknown>, fields: FieldShapes) =>
    projectId !== undefined &&
    'project_id' in fields &&
    typeof item.project_id === 'string' &&
    item.project_id !== projectId;
  switch (shape.kind) {
    case 'stream':
      throw new UnreadableAnswer('a JSON answer where an event stream was expected');
    case 'object':
      if (!isRecord(body)) throw new UnreadableAnswer('the answer is not an object');
      if (namesOtherProject(body, shape.fields)) throw new UnreadableAnswer(otherProjectReason);
      return pick(body, shape.fields, clean);
    case 'envelope': {
      if (!isRecord(body) || !isRecord(body.data)) throw new UnreadableAnswer('the envelope has no data object');
      if (shape.owned === true && !ownedBy(body.data))
        throw new UnreadableAnswer('the resource belongs to another external user');
      const data = pick(body.data, shape.data, clean);
      const redirect = shape.redirect === undefined ? undefined : data[shape.redirect];
      // The one-time state goes with the end user: only to an origin the agency configured, never by plain http to it.
      if (typeof redirect === 'string' && options.installOrigins?.has(parseHttpUrl(redirect)?.origin ?? '') !== true)
        throw new UnreadableAnswer('the install address leads outside codehostInstallOrigins');
      if (namesOtherProject(body.data, shape.data)) {
        delete data.project_id;
        options.onDropped?.(`${otherProjectReason}: its project_id was dropped`);
      }
      return { success: true, message: messageOf(body, clean), data, errors: null };
    }
    case 'list': {
      const items = listOf(body).filter(isRecord);
      const kept = shape.owned === true ? items.filter(ownedBy) : items;
      return {
        success: true,
        message: messageOf(body, clean),
        data: kept.map((item) => pick(item, shape.item, clean)),
        errors: null,
      };
    }
    case 'page': {
      if (!isRecord(body) || !isRecord(body.data) || !Array.isArray(body.data.items))
        throw new UnreadableAnswer('the page has no data.items');
      const meta = isRecord(body.data.meta) ? pick(body.data.meta, shape.meta, clean) : {};
      return {
        success: true,
        message: messageOf(body, clean),
        data: { items: body.data.items.filter(isRecord).map((item) => pick(item, shape.item, clean)), meta },
        errors: null,
      };
    }
    default:
      return shape satisfies never;
  }
}

/**
 * The browser's answer to an upstream failure (4xx, 5xx): the spec's error fields only, in the body's own
 * shape (`{ status: false, message, errors }` or the envelope with `data: null`); never any data.
 */
export function buildFailureAnswer(body: unknown, clean: (text: string) => string): Json {
  if (!isRecord(body)) throw new UnreadableAnswer('the failure is not an object');
  const answer = pick(body, { status: 'boolean', success: 'boolean', message: 'string', errors: 'errors' }, clean);
  if ('data' in body) answer.data = null;
  if (typeof answer.message !== 'string') throw new UnreadableAnswer('the failure has no message');
  return answer;
}
