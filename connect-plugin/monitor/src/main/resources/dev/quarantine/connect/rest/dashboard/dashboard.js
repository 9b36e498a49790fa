// The dead-letter dashboard. Reads the monitor's JSON endpoints (GET /dead-letters, /dead-letters/{topic},
// /dead-letters/{topic}/records) every few seconds, with the browser's own credentials, and draws them with plain
// DOM and SVG. Every string from a record (topic and error class names, headers, messages, payloads) reaches the
// page as text (textContent, text nodes, attribute values): nothing here parses HTML.
'use strict';

(function () {
  const REFRESH_MS = 5000;
  const MINUTE_MS = 60000;
  const HISTORY_MINUTES = 15;
  const RECORDS = 20;
  const SVG = 'http://www.w3.org/2000/svg';
  const script = new URL(document.currentScript.src);
  // a page opened as http://user:password@host/... has them in its URLs too, and fetch refuses such URLs: the
  // browser keeps the sign-in, not the URL
  script.username = '';
  script.password = '';
  const api = new URL('../../', script); // <root>/dead-letters/ui/dashboard.js -> <root>/
  const ui = new URL('.', script);

  const state = {
    topic: null, paused: false, timer: null, lastOk: null, replay: false, detail: null, replayWatch: null
  };

  // ---- small DOM helpers: text only ----
  const $ = (id) => document.getElementById(id);

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      node.setAttribute(name, String(value));
    }
    for (const child of children) {
      node.append(child instanceof Node ? child : String(child));
    }
    return node;
  }

  function svg(tag, attrs, ...children) {
    const node = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      node.setAttribute(name, String(value));
    }
    for (const child of children) {
      node.append(child instanceof Node ? child : String(child));
    }
    return node;
  }

  function setText(id, text) {
    $(id).textContent = text;
  }

  // ---- formatting: the figures as the JSON has them ----
  function count(n) {
    return n === null || n === undefined ? '–' : String(n);
  }

  function rate(perSecond) {
    return perSecond === null || perSecond === undefined ? '–' : perSecond.toFixed(3) + '/s';
  }

  function when(iso) {
    return iso ? iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC') : 'never';
  }

  function topicHref(topic) {
    return '#topic=' + encodeURIComponent(topic);
  }

  // ---- fetching ----
  class AnswerError extends Error {
    constructor(status, body, retryAfter) {
      super(body && body.message ? body.message : 'HTTP ' + status);
      this.status = status;
      this.category = body && body.category;
      this.retryAfter = retryAfter;
    }
  }

  async function getJson(path, base) {
    let response;
    try {
      response = await fetch(new URL(path, base || api), {
        credentials: 'same-origin', headers: {Accept: 'application/json'}, cache: 'no-store'
      });
    } catch (e) {
      throw new AnswerError(0, {message: 'the worker did not answer'}, null);
    }
    let body = null;
    try {
      body = await response.json();
    } catch (e) {
      body = null;
    }
    if (!response.ok) {
      throw new AnswerError(response.status, body, response.headers.get('Retry-After'));
    }
    return body;
  }

  // ---- notices: partial figures, catching up, errors ----
  function notice(kind, text) {
    const box = $('notice');
    box.className = kind || '';
    box.textContent = text || '';
    box.hidden = !text;
  }

  function completeness(body) {
    const parts = [];
    if (body.complete === false) {
      parts.push('Partial figures: ' + (body.incomplete_because || 'some partitions are missing')
        + ' (missing partitions: ' + (body.missing_partitions || []).join(', ') + ').');
    }
    if (body.catching_up) {
      parts.push('Catching up: the monitor on this worker has ' + count(body.catching_up.records_behind_on_this_worker)
        + ' dead letters still to read; the figures are rising.');
    }
    if (body.capped) {
      parts.push('Capped: ' + count(body.capped.records_not_kept) + ' records not kept'
        + (body.capped.topics_not_kept ? ' (topics ' + body.capped.topics_not_kept.join(', ') + ')' : '')
        + ': raise quarantine.monitor.max.topics.');
    }
    return parts.join(' ');
  }

  function failed(error) {
    const since = state.lastOk ? ' Showing figures from ' + state.lastOk.toLocaleTimeString() + '.' : '';
    if (error.status === 503) {
      notice('catching-up', 'The monitor is catching up (starting, restoring or rebalancing): ' + error.message
        + '.' + since + ' Retrying.');
    } else if (error.status === 401 || error.status === 403) {
      notice('error', 'Not authorized (' + error.status + '): sign in to the worker\'s REST API.');
    } else if (error.status === 404 && state.topic) {
      notice('error', error.message);
    } else {
      notice('error', 'The monitor answered ' + (error.status || 'nothing') + ': ' + error.message + '.' + since);
    }
    setText('updated', 'not updated');
  }

  function succeeded(bodies) {
    state.lastOk = new Date();
    const partial = Array.from(new Set(bodies.map(completeness).filter((text) => text))).join(' ');
    notice(partial ? (bodies.some((b) => b.complete === false || b.capped) ? 'partial' : 'catching-up') : '', partial);
    setText('updated', 'updated ' + state.lastOk.toLocaleTimeString());
    document.body.dataset.complete = String(bodies.every((b) => b.complete !== false));
  }

  // ---- the per-minute series: the last 15 whole minutes and the current one, zeros filled in ----
  function minutes(perMinute, nowMs) {
    const counts = new Map((perMinute || []).map((w) => [Date.parse(w.start), w.count]));
    const current = Math.floor(nowMs / MINUTE_MS) * MINUTE_MS;
    const series = [];
    for (let i = HISTORY_MINUTES; i >= 0; i--) {
      const start = current - i * MINUTE_MS;
      series.push({start: start, count: counts.get(start) || 0});
    }
    return series;
  }

  function barChart(series, width, height, label) {
    const max = Math.max(1, ...series.map((m) => m.count));
    const step = width / series.length;
    const chart = svg('svg', {viewBox: '0 0 ' + width + ' ' + height, width: width, height: height, role: 'img',
      'aria-label': label, class: 'minutes', preserveAspectRatio: 'none'});
    chart.append(svg('title', {}, label));
    series.forEach((m, i) => {
      const h = m.count === 0 ? 1 : Math.max(2, Math.round((m.count / max) * (height - 2)));
      const bar = svg('rect', {x: (i * step + 1).toFixed(1), y: height - h, width: Math.max(1, step - 2).toFixed(1),
        height: h, class: m.count === 0 ? 'zero' : 'some'});
      bar.append(svg('title', {}, new Date(m.start).toISOString().substring(11, 16) + ' UTC: ' + m.count));
      chart.append(bar);
    });
    return chart;
  }

  // ---- overview ----
  // rows are kept per topic and updated in place, so that a refresh never takes the keyboard focus away
  function topicRow(topic) {
    return el('tr', {'data-topic': topic},
      el('th', {scope: 'row'}, el('a', {href: topicHref(topic)}, topic)),
      el('td', {class: 'num total', 'data-label': 'Total'}),
      el('td', {class: 'num rate1', 'data-label': 'Rate 1 min'}),
      el('td', {class: 'num rate15', 'data-label': 'Rate 15 min'}),
      el('td', {class: 'last', 'data-label': 'Last seen'}),
      el('td', {class: 'spark'}));
  }

  function updateRow(row, t) {
    const series = minutes(t.per_minute, Date.now());
    const sum = series.reduce((a, m) => a + m.count, 0);
    row.querySelector('.total').textContent = count(t.total);
    row.querySelector('.rate1').textContent = rate(t.rate_1m);
    row.querySelector('.rate15').textContent = rate(t.rate_15m);
    row.querySelector('.last').textContent = when(t.last_seen);
    row.querySelector('.spark').replaceChildren(barChart(series, 160, 24, sum + ' in the last 15 minutes'));
  }

  function renderOverview(summary) {
    setText('grand-total', count(summary.total));
    setText('topic-count', count(summary.topics.length));
    const tbody = document.querySelector('#topics tbody');
    const kept = new Map(Array.from(tbody.children, (row) => [row.dataset.topic, row]));
    summary.topics.forEach((t, i) => {
      const row = kept.get(t.topic) || topicRow(t.topic);
      kept.delete(t.topic);
      updateRow(row, t);
      if (tbody.children[i] !== row) {
        tbody.insertBefore(row, tbody.children[i] || null);
      }
    });
    kept.forEach((row) => row.remove());
    $('no-topics').hidden = summary.topics.length > 0;
  }

  // ---- one topic ----
  function bars(id, counts) {
    const entries = Object.entries(counts || {}).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const max = Math.max(1, ...entries.map((e) => e[1]));
    const items = entries.map(([name, n]) => {
      const bar = svg('svg', {viewBox: '0 0 100 10', preserveAspectRatio: 'none', class: 'meter', 'aria-hidden': 'true'},
        svg('rect', {x: 0, y: 0, height: 10, width: Math.max(1, (n / max) * 100).toFixed(2)}));
      return el('li', {'data-name': name}, el('span', {class: 'name'}, name), bar,
        el('span', {class: 'num count'}, count(n)));
    });
    $(id).replaceChildren(...(items.length ? items : [el('li', {class: 'empty'}, 'none yet')]));
  }

  function renderDetail(detail) {
    state.detail = detail;
    setText('topic-title', detail.topic);
    setText('t-total', count(detail.total));
    setText('t-rate1', rate(detail.rate_1m));
    setText('t-rate15', rate(detail.rate_15m));
    setText('t-first', when(detail.first_seen));
    setText('t-last', when(detail.last_seen));
    const series = minutes(detail.per_minute, Date.now());
    const sum = series.reduce((a, m) => a + m.count, 0);
    const chart = barChart(series, 640, 120, sum + ' dead letters in the last 15 minutes, per minute');
    const axis = el('p', {class: 'axis'},
      el('span', {}, new Date(series[0].start).toISOString().substring(11, 16) + ' UTC'),
      el('span', {}, 'max ' + Math.max(...series.map((m) => m.count)) + '/min'),
      el('span', {}, 'now'));
    $('t-minutes').replaceChildren(chart, axis);
    bars('t-errors', detail.by_error_class);
    bars('t-origins', detail.by_original_topic);
    bars('t-connectors', detail.by_connector_or_application);
    fillSelect('errorClass', detail.by_error_class);
    fillSelect('originalTopic', detail.by_original_topic);
    preview();
  }

  function payloadText(base64) {
    try {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const text = new TextDecoder('utf-8', {fatal: false}).decode(bytes);
      return text.length > 200 ? text.substring(0, 200) + '…' : text;
    } catch (e) {
      return '(not decodable)';
    }
  }

  function recordRows(r) {
    const origin = r.original.position ?? (r.original.topic ? r.original.topic + ' (position unknown)' : '(unknown)');
    const size = r.original_size ?? r.value_size;
    const rows = [el('tr', {'data-position': r.position},
      el('td', {}, when(r.timestamp)),
      el('td', {class: 'format'}, r.format ?? 'unknown'),
      el('td', {class: 'origin'}, el('code', {}, origin)),
      el('td', {class: 'error-class'}, r.error_class ?? '(unknown)'),
      el('td', {class: 'group'}, (r.connector_or_application ?? '(unknown)') + (r.task ? ' · task ' + r.task : '')
        + (r.stage ? ' · ' + r.stage : '')),
      el('td', {}, el('code', {}, r.position)),
      el('td', {class: 'num'}, size === null || size === undefined ? '–' : count(size) + ' B'))];
    const extra = [];
    if (r.error_message) {
      extra.push(el('p', {class: 'message'}, el('strong', {}, 'Error: '), r.error_message));
    }
    if (r.key_base64 !== undefined || r.value_base64 !== undefined) {
      extra.push(el('p', {class: 'payload'}, el('strong', {}, 'Key: '),
        el('code', {}, r.key_base64 === null ? 'null' : payloadText(r.key_base64))));
      extra.push(el('p', {class: 'payload'}, el('strong', {}, 'Value: '),
        el('code', {}, r.value_base64 === null ? 'null' : payloadText(r.value_base64))));
    }
    if (extra.length) {
      rows.push(el('tr', {class: 'more'}, el('td', {colspan: 7}, ...extra)));
    }
    return rows;
  }

  function renderRecords(body) {
    const exposed = body.records.some((r) => 'key_base64' in r);
    $('t-payload-note').hidden = exposed || body.records.length === 0;
    const rows = body.records.flatMap(recordRows);
    document.querySelector('#records tbody').replaceChildren(...(rows.length ? rows
      : [el('tr', {}, el('td', {colspan: 7, class: 'empty'}, 'No record yet.'))]));
  }

  // ---- replay: the form, a preview from the breakdowns, progress from the replay endpoints ----
  function fillSelect(name, counts) {
    const select = document.querySelector('#replay-form [name="' + name + '"]');
    const key = JSON.stringify(counts || {});
    if (select.dataset.key === key) {
      return; // unchanged: leave an open list alone
    }
    select.dataset.key = key;
    const chosen = select.value;
    const options = [el('option', {value: ''}, 'any')].concat(Object.keys(counts || {}).sort()
      .map((value) => el('option', {value: value}, value + ' (' + counts[value] + ')')));
    select.replaceChildren(...options);
    select.value = Object.prototype.hasOwnProperty.call(counts || {}, chosen) ? chosen : '';
  }

  /**
   * How many records the filters select, from the figures alone: exact for one of error class or original topic;
   * otherwise at most the smaller count; a time range is counted from the per-minute figures only inside the last
   * 15 minutes.
   */
  function previewCount(detail, filter) {
    const byClass = filter.errorClass ? (detail.by_error_class[filter.errorClass] || 0) : null;
    const byOrigin = filter.originalTopic ? (detail.by_original_topic[filter.originalTopic] || 0) : null;
    let n = detail.total;
    let exact = true;
    if (byClass !== null && byOrigin !== null) {
      n = Math.min(byClass, byOrigin);
      exact = false;
    } else if (byClass !== null || byOrigin !== null) {
      n = byClass ?? byOrigin;
    }
    if (filter.from || filter.to) {
      const from = filter.from ? Date.parse(filter.from) : -Infinity;
      const to = filter.to ? Date.parse(filter.to) : Infinity;
      const oldest = Date.now() - HISTORY_MINUTES * MINUTE_MS;
      if (from >= oldest) {
        const inRange = minutes(detail.per_minute, Date.now())
          .filter((m) => m.start + MINUTE_MS > from && m.start <= to).reduce((a, m) => a + m.count, 0);
        n = Math.min(n, inRange);
      }
      exact = false;
    }
    return {count: n, exact: exact};
  }

  function replayFilter() {
    const form = $('replay-form');
    const value = (name) => form.elements[name].value;
    const iso = (local) => (local ? new Date(local).toISOString() : undefined);
    const filter = {
      errorClass: value('errorClass') || undefined,
      originalTopic: value('originalTopic') || undefined,
      from: iso(value('from')),
      to: iso(value('to')),
      destination: value('destination') === 'topic' ? value('destinationTopic').trim() : value('destination'),
      maxAttempts: Number(value('maxAttempts')) || undefined,
      // speed limits: empty or 0 is no limit; the server refuses anything but a whole number, 0 or more (400)
      maxRecordsPerSecond: limit(value('maxRecordsPerSecond')),
      maxBytesPerSecond: limit(value('maxBytesPerSecond'))
    };
    return filter;
  }

  /** A speed limit field: undefined when empty or 0 (no limit), else the number typed, sent for the server to check. */
  function limit(text) {
    const trimmed = String(text).trim();
    return trimmed === '' || Number(trimmed) === 0 ? undefined : Number(trimmed);
  }

  function preview() {
    if (!state.detail || $('replay-form').hidden) {
      return;
    }
    const p = previewCount(state.detail, replayFilter());
    setText('replay-preview', (p.exact ? '' : 'at most ') + p.count + ' records match these filters'
      + (p.exact ? '.' : ' (the figures cannot tell exactly; the replay reports what it replayed).'));
  }

  function showReplay() {
    $('replay-form').hidden = !state.replay;
    $('replay-off').hidden = state.replay;
    $('replay-confirm').hidden = true;
    $('replay-progress').hidden = true;
  }

  function disableReplay() {
    state.replay = false;
    $('replay-form').hidden = true;
    $('replay-confirm').hidden = true;
    $('replay-off').hidden = false;
  }

  /** The body of POST /dead-letters/{topic}/replays for the form's filter (see docs/rest-extension.md#replays). */
  function replayRequest(filter) {
    const request = {destination: filter.destination};
    if (filter.errorClass) {
      request.errorClasses = [filter.errorClass];
    }
    if (filter.originalTopic) {
      request.originalTopics = [filter.originalTopic];
    }
    for (const key of ['from', 'to', 'maxAttempts', 'maxRecordsPerSecond', 'maxBytesPerSecond']) {
      if (filter[key] !== undefined) {
        request[key] = filter[key];
      }
    }
    return request;
  }

  function replaysUrl(topic) {
    return new URL('dead-letters/' + encodeURIComponent(topic) + '/replays', api);
  }

  /** A new Idempotency-Key: retrying the confirmed start (a double click, a lost answer) starts one replay. */
  function newKey() {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  }

  async function postReplay(topic, body, key) {
    const headers = {'Content-Type': 'application/json', Accept: 'application/json'};
    if (key) {
      headers['Idempotency-Key'] = key;
    }
    const response = await fetch(replaysUrl(topic), {
      method: 'POST', credentials: 'same-origin', cache: 'no-store', headers: headers, body: JSON.stringify(body)
    });
    const answer = await response.json().catch(() => null);
    if (response.status === 404 && !(answer && answer.category === 'NOT_FOUND')) {
      disableReplay();
      return null;
    }
    if (response.status !== 202 && response.status !== 200) {
      setText('replay-preview', 'The replay was refused (' + response.status + '): '
        + (answer && answer.message ? answer.message : 'no reason given'));
      return null;
    }
    return {response: response, body: answer};
  }

  /** Step 1: a dry run of the form's replay (nothing written), shown for the operator to confirm. */
  async function startReplay(event) {
    event.preventDefault();
    const topic = state.topic;
    const filter = replayFilter();
    if (filter.destination === '') {
      setText('replay-preview', 'Name the destination topic.');
      return;
    }
    $('replay-start').disabled = true;
    try {
      const request = replayRequest(filter);
      const dry = await postReplay(topic, Object.assign({dryRun: true}, request));
      if (dry && state.topic === topic) {
        showDryRun(dry.body, topic, request);
      }
    } finally {
      $('replay-start').disabled = false;
    }
  }

  function showDryRun(report, topic, request) {
    const counts = report.counts || {};
    const destinations = Object.entries(report.byDestination || {});
    $('replay-dry').querySelector('tbody').replaceChildren(...(destinations.length
      ? destinations.map(([name, n]) => el('tr', {'data-topic': name}, el('td', {}, name),
        el('td', {class: 'num'}, count(n))))
      : [el('tr', {}, el('td', {colspan: 2, class: 'empty'}, 'No dead letter would be written.'))]));
    setText('d-refused', count(counts.refused));
    setText('d-unroutable', count(counts.skippedUnroutable));
    setText('d-already', count(counts.alreadyReplayed));
    setText('d-filtered', count(counts.skippedByFilter));
    setText('d-truncated', count(counts.skippedTruncated));
    $('replay-dry-incomplete').hidden = report.complete !== false;
    $('replay-form').hidden = true;
    $('replay-confirm').hidden = false;
    const key = newKey();
    // the replay writes what this preview read, never a dead letter that arrived after it
    const previewed = Object.assign({}, request, report.until ? {until: report.until} : {});
    $('replay-confirm-start').onclick = () => confirmReplay(topic, previewed, key);
    $('replay-confirm-start').focus();
  }

  function backToForm() {
    $('replay-confirm').hidden = true;
    $('replay-form').hidden = !state.replay;
  }

  /** Step 2: the confirmed replay, with the key of this confirmation. */
  async function confirmReplay(topic, request, key) {
    $('replay-confirm-start').disabled = true;
    try {
      const started = await postReplay(topic, request, key);
      if (!started || state.topic !== topic) {
        backToForm();
        return;
      }
      $('replay-confirm').hidden = true;
      const location = started.response.headers.get('Location');
      const id = started.body && started.body.id;
      watchReplay(location ? new URL(location, api)
        : new URL(replaysUrl(topic).href + '/' + encodeURIComponent(id)), id);
    } finally {
      $('replay-confirm-start').disabled = false;
    }
  }

  const FINISHED = /^(DONE|CANCELLED)$/;

  function watchReplay(url, id) {
    clearTimeout(state.replayWatch);
    $('replay-progress').hidden = false;
    setText('replay-id', id || url.pathname.split('/').pop());
    $('replay-cancel').onclick = async () => {
      await fetch(url, {method: 'DELETE', credentials: 'same-origin',
        headers: {'Content-Type': 'application/json', Accept: 'application/json'}}).catch(() => null);
    };
    const poll = async () => {
      try {
        const progress = await getJson(url.href);
        setText('replay-state', String(progress.state ?? 'running'));
        const counts = progress.counts || {};
        setText('r-replayed', count(counts.replayed));
        setText('r-again', count(counts.deadLetteredAgain));
        setText('r-parked', count(counts.parked));
        setText('r-filtered', count(counts.skippedByFilter));
        setText('r-truncated', count(counts.skippedTruncated));
        setText('r-refused', count(counts.refused));
        setText('r-unroutable', count(counts.skippedUnroutable));
        setText('r-already', count(counts.alreadyReplayed));
        $('replay-cancel').hidden = FINISHED.test(String(progress.state));
        if (!FINISHED.test(String(progress.state))) {
          state.replayWatch = setTimeout(poll, 1000);
        }
      } catch (e) {
        setText('replay-state', 'unknown (' + e.message + ')');
        state.replayWatch = setTimeout(poll, 3000);
      }
    };
    poll();
  }

  // ---- navigation and refresh ----
  function clearTopic() {
    for (const id of ['t-total', 't-rate1', 't-rate15', 't-first', 't-last']) {
      setText(id, '–');
    }
    for (const id of ['t-minutes', 't-errors', 't-origins', 't-connectors']) {
      $(id).replaceChildren();
    }
    document.querySelector('#records tbody').replaceChildren();
    for (const select of document.querySelectorAll('#replay-form select[data-key]')) {
      delete select.dataset.key;
      select.replaceChildren(el('option', {value: ''}, 'any'));
    }
  }

  function route() {
    const match = /^#topic=(.+)$/.exec(location.hash);
    state.topic = match ? decodeURIComponent(match[1]) : null;
    state.detail = null;
    $('overview').hidden = state.topic !== null;
    $('topic').hidden = state.topic === null;
    if (state.topic) {
      clearTopic();
      setText('topic-title', state.topic);
      document.title = 'Dead letters: ' + state.topic;
      showReplay();
    } else {
      document.title = 'Dead letters';
    }
    refresh();
  }

  async function refresh() {
    clearTimeout(state.timer);
    const topic = state.topic;
    try {
      if (topic === null) {
        const summary = await getJson('dead-letters');
        if (state.topic === null) {
          renderOverview(summary);
          succeeded([summary]);
        }
      } else {
        const path = 'dead-letters/' + encodeURIComponent(topic);
        const [detail, records] = await Promise.all([getJson(path), getJson(path + '/records?limit=' + RECORDS)]);
        if (state.topic === topic) {
          renderDetail(detail);
          renderRecords(records);
          succeeded([detail, records]);
        }
      }
    } catch (e) {
      failed(e);
    }
    document.body.dataset.loaded = 'true';
    schedule();
  }

  function schedule() {
    clearTimeout(state.timer);
    if (!state.paused) {
      state.timer = setTimeout(() => (document.hidden ? schedule() : refresh()), REFRESH_MS);
    }
  }

  async function start() {
    $('pause').addEventListener('click', () => {
      state.paused = !state.paused;
      $('pause').setAttribute('aria-pressed', String(state.paused));
      setText('pause', state.paused ? 'Resume refresh' : 'Pause refresh');
      if (!state.paused) {
        refresh();
      } else {
        clearTimeout(state.timer);
      }
    });
    const form = $('replay-form');
    form.addEventListener('submit', startReplay);
    $('replay-confirm-back').addEventListener('click', backToForm);
    form.addEventListener('input', preview);
    form.elements.destination.addEventListener('change', () => {
      form.elements.destinationTopic.disabled = form.elements.destination.value !== 'topic';
    });
    try {
      state.replay = (await getJson('features', ui)).replay === true;
    } catch (e) {
      state.replay = false;
    }
    window.addEventListener('hashchange', route);
    route();
  }

  start();
}());
