// The dashboard's overview: every monitored dead-letter topic with its totals, rates and the last 15 minutes.
'use strict';

(function (dashboard) {
  const {$, el, setText, count, rate, when, topicHref, minutes, barChart} = dashboard;

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

  dashboard.overview = {render: renderOverview};
}(window.deadLetterDashboard));
