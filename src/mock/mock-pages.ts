/** The HTML the mock serves: each project's app page and its own front page. */
import { escapeHtml, htmlPage, htmlResponse } from './mock-responses.js';
import type { MockProject } from './mock-state.js';

const accents: Record<string, string> = {
  blue: '#2563eb',
  green: '#15803d',
  red: '#dc2626',
  orange: '#c2410c',
  purple: '#7c3aed',
  pink: '#db2777',
  teal: '#0f766e',
};
const defaultAccent = '#4f46e5';

/** The look the prompts asked for: the last colour named wins, and "dark" or "light" likewise. */
function lookOf(prompts: string[]): { accent: string; dark: boolean } {
  let accent = defaultAccent;
  let dark = false;
  for (const prompt of prompts) {
    for (const word of prompt.toLowerCase().match(/[a-z]+/g) ?? []) {
      if (word in accents) accent = accents[word] as string;
      if (word === 'dark') dark = true;
      if (word === 'light') dark = false;
    }
  }
  return { accent, dark };
}

const blurbs: [RegExp, string][] = [
  [/List$/, 'Browse, search and sort everything in one place.'],
  [/Form$/, 'Add and edit entries in a few seconds.'],
  [/Showcase$/, 'Your best work, large and in order.'],
  [/^Hero$/, 'A first screen that says what this is.'],
];

/** One card per generated component but the header: its name in words and what it is for. */
function featureCards(project: MockProject): string {
  const components = [...project.files.keys()]
    .map((path) => /^src\/components\/([A-Za-z0-9]+)\.tsx$/.exec(path)?.[1])
    .filter((name): name is string => name !== undefined && name !== 'Header');
  return components
    .map((name) => {
      const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2');
      const title = words.charAt(0) + words.slice(1).toLowerCase();
      const blurb = blurbs.find(([pattern]) => pattern.test(name))?.[1] ?? 'Added in a later change.';
      return `<article class="card"><h2>${escapeHtml(title)}</h2><p>${escapeHtml(blurb)}</p></article>`;
    })
    .join('\n');
}

/**
 * The page served at a project's `app_url`: a plausible generated app that follows its prompts (a colour
 * or "dark" named in a follow-up changes it), so a preview shows a follow-up taking effect.
 */
export function appPageResponse(project: MockProject | undefined): Response {
  if (project === undefined) {
    return htmlResponse(404, htmlPage('App not found', '<h1>App not found</h1>\n<p>No project has this address.</p>'));
  }
  const building = project.status === 'provisioning' || project.status === 'generating';
  const { accent, dark } = lookOf(project.prompts);
  const [first = '', ...changes] = project.prompts;
  const cards = featureCards(project);
  const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
${building ? '<meta http-equiv="refresh" content="2">\n' : ''}<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(project.name)}</title>
<style>
:root { --accent: ${accent}; --bg: ${dark ? '#0f1115' : '#ffffff'}; --text: ${dark ? '#e8eaed' : '#111827'};
  --muted: ${dark ? '#9aa0a6' : '#4b5563'}; --card: ${dark ? '#1a1d23' : '#f8fafc'}; --line: ${dark ? '#2a2e36' : '#e5e7eb'}; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.55 system-ui, -apple-system, "Segoe UI", sans-serif; background: var(--bg); color: var(--text); }
.nav { display: flex; flex-wrap: wrap; align-items: center; gap: 12px; padding: 16px 6vw; border-bottom: 1px solid var(--line); }
.logo { width: 22px; height: 22px; border-radius: 6px; background: var(--accent); flex: none; }
.nav strong { font-size: 17px; }
.nav nav { margin-left: auto; display: flex; gap: 20px; color: var(--muted); font-size: 15px; }
.banner { margin: 0; padding: 10px 6vw; background: var(--accent); color: #fff; font-size: 14px; }
.hero { padding: 9vh 6vw 7vh; max-width: 60rem; }
.eyebrow { color: var(--accent); font-weight: 600; font-size: 14px; letter-spacing: .04em; text-transform: uppercase; margin: 0 0 12px; }
h1 { font-size: clamp(2rem, 5vw, 3.4rem); line-height: 1.1; margin: 0 0 16px; letter-spacing: -.02em; }
.lead { font-size: 1.15rem; color: var(--muted); max-width: 38rem; margin: 0 0 28px; }
.actions { display: flex; gap: 12px; flex-wrap: wrap; }
.button { display: inline-block; padding: 11px 20px; border-radius: 10px; background: var(--accent); color: #fff; font-weight: 600; text-decoration: none; }
.button.ghost { background: transparent; color: var(--text); border: 1px solid var(--line); }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr)); gap: 16px; padding: 0 6vw 8vh; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 14px; padding: 20px; }
.card h2 { margin: 0 0 6px; font-size: 17px; }
.card p { margin: 0; color: var(--muted); font-size: 15px; }
.changes { padding: 0 6vw 8vh; }
.changes h2 { font-size: 18px; margin: 0 0 10px; }
.changes li { color: var(--muted); margin: 4px 0; }
footer { padding: 20px 6vw; border-top: 1px solid var(--line); color: var(--muted); font-size: 13px; }
</style>
</head>
<body>
<header class="nav" aria-label="${escapeHtml(project.name)}"><span class="logo" aria-hidden="true"></span><strong>${escapeHtml(project.name)}</strong>
<nav aria-label="Main"><span>Home</span><span>Features</span><span>Contact</span></nav></header>
${building ? '<p class="banner" role="status">Building… this page refreshes by itself.</p>\n' : ''}<main>
<section class="hero">
<p class="eyebrow">${project.mode === 'design' ? 'Design preview' : 'Live app'}</p>
<h1>${escapeHtml(project.name)}</h1>
<p class="lead">${escapeHtml(first)}</p>
<div class="actions"><a class="button" href="#features">Get started</a>${changes.length === 0 ? '' : '<a class="button ghost" href="#changes">What changed</a>'}</div>
</section>
${cards === '' ? '' : `<section class="cards" id="features" aria-label="Features">\n${cards}\n</section>`}
${changes.length === 0 ? '' : `<section class="changes" id="changes"><h2>Changes</h2><ul>${changes.map((change) => `<li>${escapeHtml(change)}</li>`).join('')}</ul></section>`}
</main>
<footer>${project.files.size} file${project.files.size === 1 ? '' : 's'} · ${project.mode} mode · served by the mock Agent API</footer>
</body>
</html>
`;
  return htmlResponse(200, page);
}

/** The mock's own front page. */
export function indexPageResponse(baseUrl: string): Response {
  return htmlResponse(
    200,
    htmlPage(
      'Mock Agent API',
      `<h1>Mock Agent API</h1>
<p>API base URL: <code>${escapeHtml(baseUrl)}</code> (every request needs <code>Authorization: Bearer &lt;token&gt;</code>).</p>
<p>Admin: <code>GET /__mock/admin/state</code>, <code>POST /__mock/admin/faults</code>, <code>POST /__mock/admin/reset</code> and more (JSON).</p>`,
    ),
  );
}
