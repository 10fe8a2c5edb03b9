/** Response builders and Laravel-style validation shared by the mock's handlers. */
import { agentRoutes, parseHttpUrl, promptErrors, type AgentRouteName } from '../core/index.js';

/** Field errors as the Agent API sends them: a field name mapped to its messages. */
export type FieldErrors = Record<string, string[]>;

/** Which body shape an endpoint uses for failures: agent `{status, message}` or the envelope. */
export type BodyShape = 'agent' | 'envelope';

/** The failure body shape of a route, from its family in core's route table. */
export function shapeOf(route: AgentRouteName): BodyShape {
  return agentRoutes[route].family === 'agent' ? 'agent' : 'envelope';
}

/** A body's validation errors for its prompt (core's `promptErrors`), as field errors. */
export function promptFieldErrors(body: Record<string, unknown>): FieldErrors {
  const errors = promptErrors(body.prompt);
  return errors === undefined ? {} : { prompt: errors };
}

/** A JSON response with the given status and extra headers. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
  });
}

/** An HTML response with a strict content security policy. */
export function htmlResponse(status: number, html: string, headers: Record<string, string> = {}): Response {
  return new Response(html, {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      // No form-action: browsers apply it to the redirect after the install form, which leaves the origin.
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
      ...headers,
    },
  });
}

/** A failure in the body shape of the endpoint (`errors` is kept only for the agent shape when given). */
export function failure(
  shape: BodyShape,
  status: number,
  message: string,
  errors?: FieldErrors,
  headers: Record<string, string> = {},
): Response {
  const body =
    shape === 'agent'
      ? { status: false, message, ...(errors === undefined ? {} : { errors }) }
      : { success: false, message, data: null, errors: errors ?? null };
  return jsonResponse(status, body, headers);
}

/** A success envelope of the deployment and code-hosting endpoints. */
export function envelope(data: unknown, message: string, status = 200): Response {
  return jsonResponse(status, { success: true, message, data, errors: null });
}

/** Laravel's summary of several field errors: the first message and a count of the rest. */
export function validationMessage(errors: FieldErrors): string {
  const messages = Object.values(errors).flat();
  const first = messages[0] ?? 'The given data was invalid.';
  const rest = messages.length - 1;
  return rest > 0 ? `${first} (and ${rest} more error${rest === 1 ? '' : 's'})` : first;
}

/**
 * A 422 validation failure. Agent endpoints answer `{status:false, message, errors}`; the deployment and
 * code-hosting endpoints answer `{message, errors}` (the spec's "body with message and errors").
 */
export function validationFailure(shape: BodyShape, errors: FieldErrors): Response {
  const message = validationMessage(errors);
  return jsonResponse(422, shape === 'agent' ? { status: false, message, errors } : { message, errors });
}

/** Outcome of reading a JSON body. */
export type BodyResult = { ok: true; body: Record<string, unknown> } | { ok: false; response: Response };

/**
 * Reads a JSON object body like Laravel's middleware does: strings trimmed, empty strings become null,
 * an empty body is `{}`; invalid JSON is a 400 in the endpoint's shape.
 */
export async function readJsonBody(request: Request, shape: BodyShape): Promise<BodyResult> {
  const text = await request.text();
  if (text.trim() === '') return { ok: true, body: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, response: failure(shape, 400, 'The request body must be valid JSON.') };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { ok: true, body: {} };
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (typeof value === 'string') {
      const trimmed = value.trim();
      body[key] = trimmed === '' ? null : trimmed;
    } else {
      body[key] = value;
    }
  }
  return { ok: true, body };
}

function label(field: string): string {
  return field.replace(/_/g, ' ');
}

/** Collects field errors with Laravel's wording. */
export class Validator {
  readonly errors: FieldErrors = {};
  constructor(private readonly body: Record<string, unknown>) {}

  private add(field: string, message: string): void {
    (this.errors[field] ??= []).push(message);
  }

  private present(field: string): boolean {
    const value = this.body[field];
    return value !== undefined && value !== null;
  }

  /** A required string of at most `max` characters; returns it when valid. */
  requiredString(field: string, max = 255): string | undefined {
    if (!this.present(field)) {
      this.add(field, `The ${label(field)} field is required.`);
      return undefined;
    }
    return this.checkString(field, max);
  }

  /** An optional string; returns it when present and valid. */
  optionalString(field: string, max = 255): string | undefined {
    return this.present(field) ? this.checkString(field, max) : undefined;
  }

  private checkString(field: string, max: number): string | undefined {
    const value = this.body[field];
    if (typeof value !== 'string') {
      this.add(field, `The ${label(field)} field must be a string.`);
      return undefined;
    }
    if ([...value].length > max) {
      this.add(field, `The ${label(field)} field must not be greater than ${max} characters.`);
      return undefined;
    }
    return value;
  }

  /** An optional boolean. */
  optionalBoolean(field: string): boolean | undefined {
    if (!this.present(field)) return undefined;
    const value = this.body[field];
    if (typeof value !== 'boolean') {
      this.add(field, `The ${label(field)} field must be true or false.`);
      return undefined;
    }
    return value;
  }

  /** A required e-mail address. */
  requiredEmail(field: string): string | undefined {
    const value = this.requiredString(field);
    if (value !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) {
      this.add(field, `The ${label(field)} field must be a valid email address.`);
      return undefined;
    }
    return value;
  }

  /** A required absolute http(s) URL: nothing else may ever become a redirect. */
  requiredHttpUrl(field: string): string | undefined {
    const value = this.requiredString(field, 2048);
    if (value === undefined) return undefined;
    if (parseHttpUrl(value) === undefined) {
      this.add(field, `The ${label(field)} field must be a valid URL.`);
      return undefined;
    }
    return value;
  }

  /** Adds a message to a field directly. */
  fail(field: string, message: string): void {
    this.add(field, message);
  }

  /** Whether no rule failed. */
  get valid(): boolean {
    return Object.keys(this.errors).length === 0;
  }
}

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** A small, accessible HTML document. */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body { font: 16px/1.5 system-ui, sans-serif; margin: 0; padding: 2rem; color: #1b1f24; background: #f6f8fa; }
main { max-width: 40rem; margin: 0 auto; background: #fff; border: 1px solid #d0d7de; border-radius: 8px; padding: 1.5rem 2rem; }
h1 { font-size: 1.5rem; margin-top: 0; }
button { font: inherit; padding: 0.5rem 1.25rem; border-radius: 6px; border: 1px solid #1a7f37; background: #1f883d; color: #fff; cursor: pointer; }
button:focus-visible { outline: 3px solid #0969da; outline-offset: 2px; }
code { background: #eff1f3; padding: 0.1rem 0.3rem; border-radius: 4px; }
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}
