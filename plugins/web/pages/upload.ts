/**
 * Upload: the "API Upload" tab (the personalised import command for this profile, the formatter
 * keys, tags and flags) and a browser form that sends files or a zip to the same import pipeline
 * under the person's session. The form's body streams (never held by hapi), so its CSRF token
 * travels in the query string or the x-csrf-token header; the script adds a progress bar (XHR upload
 * progress) and shows the answer's messages.
 */
import type { ServerRoute } from '@hapi/hapi';
import { serveImport } from '../../import.js';
import { uploadInfo } from '../../../lib/page-data.js';
import type { WebContext } from '../context.js';
import { origin } from '../context.js';
import { html } from '../html.js';
import { messageList, page } from '../layout.js';
import { credentialsOf } from '../session.js';
import { errorPage, isFragmentRequest, ownProfile, respond } from './common.js';
import type { ImportResponseBody } from '../../../lib/import/index.js';

const FLAG_HELP: Record<string, string> = {
  merge_containers: 'combine suites with the same title',
  ignore_empty_import: 'an empty report is not an error',
  suppress_files_moved: 'unmatched files moved to attachments: notice, not warning',
  ignore_invalid_file_type: 'hide invalid_file_mime_type',
  ignore_unused_parameters: 'hide the unused-parameters warning',
  ignore_unspecified_formatter: 'hide specify_formatter',
  ignore_max_files_limit: 'hide max_files_limit',
  ignore_old_report_date: 'hide report_contains_old_date',
};

export function uploadRoutes(ctx: WebContext): ServerRoute[] {
  return [
    {
      method: 'GET',
      path: '/profiles/{id}/upload',
      options: { auth: 'session', plugins: { 'tally-web': {} } },
      handler: async (request, h) => {
        const user = credentialsOf(request);
        const profile = await ownProfile(ctx, request, (request.params as { id: string }).id);
        if (!profile) return errorPage(ctx, request, h, 'not_found');
        const info = uploadInfo(ctx.registry, profile, origin(ctx, request));
        const action = `/profiles/${profile.number}/upload?csrf=${encodeURIComponent(user.csrfToken)}`;
        const body = html`<nav class="subtabs">
            <a href="#api-upload">API Upload</a> <a href="#browser-upload">Upload files here</a>
          </nav>
          <section id="api-upload">
            <h2>API Upload</h2>
            <p>
              From CI, post result files to this profile with the account's API key (the Account page shows it once when
              it is made; keep it in a secret variable, never in a URL):
            </p>
            <pre class="command" id="curl-command">${info.curl}</pre>
            <p>
              Or with Tally's upload client, one file this server hands out at
              <a href="/tally-upload.mjs"><code>/tally-upload.mjs</code></a> (Node 18 or later, nothing to install; the
              same as the <code>tally upload</code> command): it takes a directory, files or globs, zips many files on
              the fly, reads the key from <code>TALLY_API_KEY</code>, and exits non-zero when they did not land.
            </p>
            <pre class="command" id="client-command">${info.tally_upload}</pre>
            <details id="ci-snippets">
              <summary>As a CI step: GitHub Actions, GitLab CI, Jenkins</summary>
              <h4>GitHub Actions</h4>
              <pre class="command">${info.ci.github_actions}</pre>
              <h4>GitLab CI</h4>
              <pre class="command">${info.ci.gitlab_ci}</pre>
              <h4>Jenkins</h4>
              <pre class="command">${info.ci.jenkins}</pre>
            </details>
            <dl class="facts">
              <dt>Profile id</dt>
              <dd><code>${info.profile_id}</code></dd>
              <dt>Import URL</dt>
              <dd><code>${info.import_url}/{formatter}</code></dd>
            </dl>
            <h3>Formatter keys</h3>
            <p>
              Put one after <code>/import/</code>; without one the format is detected (warning
              <code>specify_formatter</code>).
            </p>
            <table class="grid compact">
              <thead>
                <tr>
                  <th>Key</th>
                  <th>Format</th>
                  <th>Extensions</th>
                </tr>
              </thead>
              <tbody>
                ${info.formatters.map(
                  (f) =>
                    html`<tr>
                      <td><code>${f.key}</code></td>
                      <td>${f.title}</td>
                      <td>${f.extensions.join(' ')}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
            <h3>Tags and flags</h3>
            <p>
              Tags: <code>-F 'tag[]=${info.tag_example}'</code> (repeatable; <code>key:value</code> such as
              <code>branch:main</code>, <code>os:linux</code>). Flags: <code>-F 'name=true'</code>.
            </p>
            <ul class="flags">
              ${info.flags.map((f) => html`<li><code>${f}</code> — ${FLAG_HELP[f] ?? ''}</li>`)}
            </ul>
          </section>
          <section id="browser-upload">
            <h2>Upload files here</h2>
            <form
              id="upload-form"
              class="stack"
              method="post"
              enctype="multipart/form-data"
              action="${action}"
              data-csrf="${user.csrfToken}"
            >
              <label
                >Formatter
                <select id="upload-formatter">
                  <option value="">detect the format</option>
                  ${info.formatters.map((f) => html`<option value="${f.key}">${f.key} — ${f.title}</option>`)}
                </select></label
              >
              <label>Tags <input type="text" name="tag[]" placeholder="branch:main" /></label>
              <label>More tags <input type="text" name="tag[]" placeholder="os:linux" /></label>
              <fieldset>
                <legend>Flags</legend>
                ${info.flags.map(
                  (f) =>
                    html`<label class="inline"
                      ><input type="checkbox" name="${f}" value="true" /> <code>${f}</code></label
                    >`,
                )}
              </fieldset>
              <label
                >Result files or a zip <input type="file" name="file[]" id="upload-files" multiple required
              /></label>
              <label>Attachments (screenshots, logs) <input type="file" name="attachment[]" multiple /></label>
              <button type="submit">Upload</button>
              <progress id="upload-progress" max="100" value="0" hidden></progress>
              <div id="upload-result" aria-live="polite"></div>
            </form>
          </section>`;
        return respond(h, page(ctx, { title: `Upload to ${profile.name}`, user, profile, tab: 'upload' }, body));
      },
    },
    {
      method: 'POST',
      path: '/profiles/{id}/upload',
      options: {
        auth: 'session',
        plugins: { 'tally-web': {} },
        payload: { output: 'stream', parse: false, maxBytes: Number.MAX_SAFE_INTEGER, timeout: false },
        timeout: { server: false, socket: false },
      },
      handler: async (request, h) => {
        const profileId = (request.params as { id: string }).id;
        const query = new URL(request.raw.req.url ?? '/', 'http://x').searchParams;
        const formatter = query.get('formatter') || null;
        // Our own parameters, not the import's: they must not show up as unused parameters.
        query.delete('csrf');
        query.delete('formatter');
        if (formatter !== null && !/^[a-z0-9][a-z0-9._-]{0,63}$/.test(formatter))
          return errorPage(ctx, request, h, 'invalid_formatter');
        const answer = await serveImport(ctx.importDeps, request, h, {
          profileId,
          route: formatter ? 'import/{formatter}' : 'import',
          formatterKey: formatter,
          query,
        });
        if (isFragmentRequest(request)) return answer;
        // The form without script: the answer as a page.
        const body = answer.source as Partial<ImportResponseBody>;
        const profile = await ownProfile(ctx, request, profileId);
        const page_ = html`<h2>
            ${body.status === 'completed' ? 'Imported' : body.status === 'queued' ? 'Queued' : 'The import failed'}
          </h2>
          <p>${body.message ?? ''}</p>
          ${messageList(body.messages ?? [])}${
            body.report_id && body.status !== 'failed'
              ? html`<p><a href="/reports/${body.report_id}">Open the report</a></p>`
              : ''
          }`;
        return respond(
          h,
          page(
            ctx,
            { title: 'Upload', user: credentialsOf(request), ...(profile ? { profile } : {}), tab: 'upload' },
            page_,
          ),
          answer.statusCode,
        );
      },
    },
  ];
}
