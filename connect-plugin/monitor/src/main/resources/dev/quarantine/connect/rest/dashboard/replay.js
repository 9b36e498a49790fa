// The dashboard's replay panel on a topic's view: the form with a preview counted from the topic's breakdowns, a dry
// run to confirm, the replay started with an Idempotency-Key, and its progress polled from the replay endpoints.
'use strict';

(function (dashboard) {
  const {$, el, setText, count, api, ui, getJson, minutes, MINUTE_MS, HISTORY_MINUTES} = dashboard;

  /** Whether this worker serves the replay endpoints (the page's features). */
  let available = false;
  /** The topic's figures the preview counts from; null until they are read. */
  let detail = null;
  /** The pending poll of the replay watched. */
  let watch = null;
  /** The topic the page shows now (the page's navigation owns it). */
  let currentTopic = () => null;

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
  function previewCount(topicDetail, filter) {
    const byClass = filter.errorClass ? (topicDetail.by_error_class[filter.errorClass] || 0) : null;
    const byOrigin = filter.originalTopic ? (topicDetail.by_original_topic[filter.originalTopic] || 0) : null;
    let n = topicDetail.total;
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
        const inRange = minutes(topicDetail.per_minute, Date.now())
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
    if (!detail || $('replay-form').hidden) {
      return;
    }
    const p = previewCount(detail, replayFilter());
    setText('replay-preview', (p.exact ? '' : 'at most ') + p.count + ' records match these filters'
      + (p.exact ? '.' : ' (the figures cannot tell exactly; the replay reports what it replayed).'));
  }

  function showReplay() {
    $('replay-form').hidden = !available;
    $('replay-off').hidden = available;
    $('replay-confirm').hidden = true;
    $('replay-progress').hidden = true;
  }

  function disableReplay() {
    available = false;
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
    const topic = currentTopic();
    const filter = replayFilter();
    if (filter.destination === '') {
      setText('replay-preview', 'Name the destination topic.');
      return;
    }
    $('replay-start').disabled = true;
    try {
      const request = replayRequest(filter);
      const dry = await postReplay(topic, Object.assign({dryRun: true}, request));
      if (dry && currentTopic() === topic) {
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
    $('replay-form').hidden = !available;
  }

  /** Step 2: the confirmed replay, with the key of this confirmation. */
  async function confirmReplay(topic, request, key) {
    $('replay-confirm-start').disabled = true;
    try {
      const started = await postReplay(topic, request, key);
      if (!started || currentTopic() !== topic) {
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
    clearTimeout(watch);
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
          watch = setTimeout(poll, 1000);
        }
      } catch (e) {
        setText('replay-state', 'unknown (' + e.message + ')');
        watch = setTimeout(poll, 3000);
      }
    };
    poll();
  }

  /** The topic's new figures: the filters' choices and the preview follow them. */
  function figures(topicDetail) {
    detail = topicDetail;
    fillSelect('errorClass', topicDetail.by_error_class);
    fillSelect('originalTopic', topicDetail.by_original_topic);
    preview();
  }

  /** Another topic is opened: no figures yet, the filters' choices emptied. */
  function clear() {
    detail = null;
    for (const select of document.querySelectorAll('#replay-form select[data-key]')) {
      delete select.dataset.key;
      select.replaceChildren(el('option', {value: ''}, 'any'));
    }
  }

  /** Wires the form, then asks the worker whether it serves replays. */
  async function start(topicShown) {
    currentTopic = topicShown;
    const form = $('replay-form');
    form.addEventListener('submit', startReplay);
    $('replay-confirm-back').addEventListener('click', backToForm);
    form.addEventListener('input', preview);
    form.elements.destination.addEventListener('change', () => {
      form.elements.destinationTopic.disabled = form.elements.destination.value !== 'topic';
    });
    try {
      available = (await getJson('features', ui)).replay === true;
    } catch (e) {
      available = false;
    }
  }

  dashboard.replay = {start: start, show: showReplay, figures: figures, clear: clear};
}(window.deadLetterDashboard));
