/** The HTML the mock serves: each project's app page and its own front page. */
import { escapeHtml, htmlPage, htmlResponse } from './mock-responses.js';
import type { MockProject } from './mock-state.js';

/** The page served at a project's `app_url`: the generated app, as far as the mock builds one. */
export function appPageResponse(project: MockProject | undefined): Response {
  if (project === undefined) {
    return htmlResponse(404, htmlPage('App not found', '<h1>App not found</h1>\n<p>No project has this address.</p>'));
  }
  const building = project.status === 'provisioning' || project.status === 'generating';
  const files = [...project.files.keys()].map((path) => `<li><code>${escapeHtml(path)}</code></li>`).join('\n');
  const page = htmlPage(
    project.name,
    `<h1>${escapeHtml(project.name)}</h1>
<p>Status: <strong>${escapeHtml(project.status)}</strong>. ${building ? 'This page refreshes while the app is being built.' : 'Served by the mock Agent API.'}</p>
<p>Project <code>${escapeHtml(project.id)}</code>, ${project.mode} mode, ${project.files.size} file${project.files.size === 1 ? '' : 's'}.</p>
${files === '' ? '' : `<ul>\n${files}\n</ul>`}`,
  );
  const withRefresh = building
    ? page.replace('<meta charset="utf-8">', '<meta charset="utf-8">\n<meta http-equiv="refresh" content="2">')
    : page;
  return htmlResponse(200, withRefresh);
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
