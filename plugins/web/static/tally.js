// Tally's pages work without this file; it adds: containers that open in place (loaded on first
// open), "show the next 100" in place, the upload form's progress bar and answer, confirmations, and
// a CI run's log followed live.
// Served from Tally's origin only (the CSP allows no inline script).
'use strict';

(function () {
  var XHR_HEADER = { 'x-requested-with': 'tally' };

  function fetchHtml(url) {
    return fetch(url, { headers: XHR_HEADER, credentials: 'same-origin' }).then(function (r) {
      if (!r.ok) throw new Error('HTTP ' + r.status);
      return r.text();
    });
  }

  function fragmentUrl(url) {
    return url + (url.indexOf('?') < 0 ? '?' : '&') + 'fragment=1';
  }

  // A container opens: its body (failure, output, attachments, children) is fetched once.
  document.addEventListener(
    'toggle',
    function (event) {
      var details = event.target;
      if (!(details instanceof HTMLDetailsElement) || !details.open || !details.dataset.node || details.dataset.loaded)
        return;
      details.dataset.loaded = 'loading';
      var body = details.querySelector('.node-body');
      body.classList.add('loading');
      fetchHtml(fragmentUrl(details.dataset.node)).then(
        function (text) {
          body.innerHTML = text; // server-rendered, every value escaped there
          body.classList.remove('loading');
          details.dataset.loaded = 'yes';
        },
        function () {
          body.classList.remove('loading');
          delete details.dataset.loaded;
        },
      );
    },
    true,
  );

  document.addEventListener('click', function (event) {
    var link = event.target instanceof Element ? event.target.closest('a[data-more]') : null;
    if (!link) return;
    event.preventDefault();
    var row = link.closest('li');
    link.textContent = 'Loading…';
    fetchHtml(link.dataset.more).then(
      function (text) {
        row.insertAdjacentHTML('afterend', text);
        row.remove();
      },
      function () {
        link.textContent = 'Could not load; try again';
      },
    );
  });

  document.addEventListener('submit', function (event) {
    var form = event.target;
    if (form.dataset && form.dataset.confirm && !window.confirm(form.dataset.confirm)) event.preventDefault();
  });

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function showAnswer(box, status, answer) {
    box.textContent = '';
    if (!answer) {
      box.appendChild(el('p', 'msg msg-error', 'The upload failed (HTTP ' + status + ').'));
      return;
    }
    box.appendChild(
      el(
        'p',
        'answer answer-' + (answer.status || 'failed'),
        answer.message || (answer.status === 'failed' ? 'The upload failed.' : ''),
      ),
    );
    var list = el('ul', 'messages');
    (answer.messages || []).forEach(function (m) {
      var item = el('li', 'msg msg-' + m.severity);
      item.appendChild(el('span', 'sev', m.severity));
      item.appendChild(document.createTextNode(' '));
      if (m.code) {
        item.appendChild(el('code', '', m.code));
        item.appendChild(document.createTextNode(' '));
      }
      item.appendChild(document.createTextNode(m.message + (m.file ? ' (' + m.file + ')' : '')));
      list.appendChild(item);
    });
    box.appendChild(list);
    if (answer.report_id && answer.status !== 'failed') {
      var p = el('p');
      var a = el('a', 'report-link', 'Open the report');
      a.href = '/reports/' + encodeURIComponent(answer.report_id);
      p.appendChild(a);
      box.appendChild(p);
    }
  }

  var upload = document.getElementById('upload-form');
  if (upload) {
    upload.addEventListener('submit', function (event) {
      event.preventDefault();
      var data = new FormData();
      // Fields before files: the import reads tags and flags that come first.
      Array.prototype.forEach.call(upload.elements, function (input) {
        if (!input.name || input.type === 'file') return;
        if (input.type === 'checkbox' && !input.checked) return;
        if (input.name === 'csrf' || !input.value) return;
        data.append(input.name, input.value);
      });
      Array.prototype.forEach.call(upload.querySelectorAll('input[type=file]'), function (input) {
        Array.prototype.forEach.call(input.files, function (file) {
          data.append(input.name, file, file.name);
        });
      });
      var formatter = document.getElementById('upload-formatter').value;
      var url =
        upload.getAttribute('action').split('?')[0] + (formatter ? '?formatter=' + encodeURIComponent(formatter) : '');
      var bar = document.getElementById('upload-progress');
      var box = document.getElementById('upload-result');
      var button = upload.querySelector('button[type=submit]');
      bar.hidden = false;
      bar.value = 0;
      button.disabled = true;
      box.textContent = 'Uploading…';
      var xhr = new XMLHttpRequest();
      xhr.open('POST', url);
      xhr.setRequestHeader('x-csrf-token', upload.dataset.csrf);
      xhr.setRequestHeader('x-requested-with', 'tally');
      xhr.upload.addEventListener('progress', function (e) {
        if (e.lengthComputable) bar.value = Math.round((e.loaded / e.total) * 100);
      });
      xhr.upload.addEventListener('load', function () {
        bar.value = 100;
        box.textContent = 'Uploaded; Tally is reading the files…';
      });
      xhr.addEventListener('load', function () {
        var answer;
        try {
          answer = JSON.parse(xhr.responseText);
        } catch {
          answer = null;
        }
        button.disabled = false;
        showAnswer(box, xhr.status, answer);
      });
      xhr.addEventListener('error', function () {
        button.disabled = false;
        box.textContent = 'The connection broke during the upload.';
      });
      xhr.send(data);
    });
  }

  // A CI run's log, followed live: the next chunks come from the page's JSON route as [classes, text]
  // runs (converted and checked by Tally) and become spans with text nodes only. The page keeps at
  // most LOG_KEEP characters; older chunks are dropped with a link to read them from their offset.
  var LOG_KEEP = 1024 * 1024;
  var log = document.getElementById('ci-log');
  if (log && log.dataset.complete !== 'true') followLog(log);

  function followLog(log) {
    var next = Number(log.dataset.next);
    var style = log.dataset.style || '';
    var carry = log.dataset.carry || '';
    var kept = log.textContent.length;
    var state = document.getElementById('ci-log-state');
    var dropped = document.getElementById('ci-log-dropped');
    var pageUrl = window.location.pathname;
    state.textContent = 'Following the log…';

    function append(answer) {
      var chunk = el('span', 'ci-chunk');
      chunk.dataset.offset = String(answer.offset);
      chunk.dataset.style = style;
      chunk.dataset.carry = carry;
      answer.runs.forEach(function (run) {
        var text = document.createTextNode(run[1]);
        if (!run[0]) return chunk.appendChild(text);
        var span = el('span', run[0]);
        span.appendChild(text);
        chunk.appendChild(span);
      });
      log.appendChild(chunk);
      kept += chunk.textContent.length;
      while (kept > LOG_KEEP && log.children.length > 1) {
        var first = log.firstElementChild;
        kept -= first.textContent.length;
        log.removeChild(first);
        var oldest = log.firstElementChild;
        var link = dropped.querySelector('a');
        link.href = pageUrl + '?offset=' + encodeURIComponent(first.dataset.offset);
        if (first.dataset.style) link.href += '&style=' + encodeURIComponent(first.dataset.style);
        if (first.dataset.carry) link.href += '&carry=' + encodeURIComponent(first.dataset.carry);
        link.textContent =
          'Read them from offset ' +
          first.dataset.offset +
          ' (this page now starts at offset ' +
          oldest.dataset.offset +
          ')';
        dropped.hidden = false;
      }
    }

    function poll() {
      var url =
        log.dataset.log +
        '?offset=' +
        next +
        '&style=' +
        encodeURIComponent(style) +
        (carry ? '&carry=' + encodeURIComponent(carry) : '');
      fetch(url, { headers: XHR_HEADER, credentials: 'same-origin' })
        .then(function (r) {
          return r.json().then(function (body) {
            return { ok: r.ok, body: body, retry: r.headers.get('retry-after') };
          });
        })
        .then(
          function (a) {
            if (!a.ok) {
              var m = (a.body.messages || [])[0] || {};
              state.textContent = (m.code ? m.code + ': ' : '') + (m.message || 'The log could not be read.');
              var again = m.code === 'ci_provider_down' || m.code === 'ci_rate_limited';
              if (again) setTimeout(poll, Math.max(5, Number(a.retry) || 0) * 1000);
              return;
            }
            var grew = a.body.next_offset > next;
            if (a.body.runs.length) append(a.body);
            next = a.body.next_offset;
            style = a.body.style;
            carry = a.body.carry;
            if (a.body.complete) {
              state.textContent = 'End of the log.';
              // The status shown was the one when the page was read; the run has ended since.
              var status = document.getElementById('ci-run-status');
              if (status && /^(queued|running)$/.test(status.textContent)) {
                status.textContent = 'ended';
                status.className = 'ci-status';
              }
              return;
            }
            state.textContent = 'Following the log…';
            setTimeout(poll, grew ? 200 : 2000);
          },
          function () {
            state.textContent = 'The connection broke; trying again…';
            setTimeout(poll, 5000);
          },
        );
    }
    poll();
  }
})();
