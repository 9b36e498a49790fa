// The dashboard's view of one dead-letter topic: its figures, the per-minute chart, the breakdowns and the newest
// records (payloads only as the monitor exposes them, as text).
'use strict';

(function (dashboard) {
  const {$, el, svg, setText, count, rate, when, minutes, barChart} = dashboard;

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

  function clearTopic() {
    for (const id of ['t-total', 't-rate1', 't-rate15', 't-first', 't-last']) {
      setText(id, '–');
    }
    for (const id of ['t-minutes', 't-errors', 't-origins', 't-connectors']) {
      $(id).replaceChildren();
    }
    document.querySelector('#records tbody').replaceChildren();
  }

  dashboard.topic = {renderDetail: renderDetail, renderRecords: renderRecords, clear: clearTopic};
}(window.deadLetterDashboard));
