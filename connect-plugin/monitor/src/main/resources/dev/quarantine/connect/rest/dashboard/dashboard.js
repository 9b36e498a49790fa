// The dead-letter dashboard page: its navigation (the overview, or one topic from #topic=<name>), the refresh every
// few seconds with the browser's own credentials, and the notice of partial figures, catching up and errors. It reads
// GET /dead-letters, /dead-letters/{topic} and /dead-letters/{topic}/records, and hands what they answer to the views:
// overview.js, topic.js and replay.js, loaded before it with common.js.
'use strict';

(function (dashboard) {
  const {$, setText, count, getJson} = dashboard;
  const REFRESH_MS = 5000;
  const RECORDS = 20;

  const state = {topic: null, paused: false, timer: null, lastOk: null};

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

  // ---- navigation and refresh ----
  function route() {
    const match = /^#topic=(.+)$/.exec(location.hash);
    state.topic = match ? decodeURIComponent(match[1]) : null;
    $('overview').hidden = state.topic !== null;
    $('topic').hidden = state.topic === null;
    if (state.topic) {
      dashboard.topic.clear();
      dashboard.replay.clear();
      setText('topic-title', state.topic);
      document.title = 'Dead letters: ' + state.topic;
      dashboard.replay.show();
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
          dashboard.overview.render(summary);
          succeeded([summary]);
        }
      } else {
        const path = 'dead-letters/' + encodeURIComponent(topic);
        const [detail, records] = await Promise.all([getJson(path), getJson(path + '/records?limit=' + RECORDS)]);
        if (state.topic === topic) {
          dashboard.topic.renderDetail(detail);
          dashboard.replay.figures(detail);
          dashboard.topic.renderRecords(records);
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
    await dashboard.replay.start(() => state.topic);
    window.addEventListener('hashchange', route);
    route();
  }

  start();
}(window.deadLetterDashboard));
