// What every view of the dead-letter dashboard uses: where the monitor's endpoints are, DOM helpers that only ever
// write text, the figures' formatting, fetching JSON with the browser's own credentials, and the per-minute bar chart.
// Every string from a record (topic and error class names, headers, messages, payloads) reaches the page as text
// (textContent, text nodes, attribute values): nothing in the dashboard's scripts parses HTML. Loaded first; the views
// (overview.js, topic.js, replay.js) and the page (dashboard.js) take what they need from window.deadLetterDashboard.
'use strict';

window.deadLetterDashboard = (function () {
  const MINUTE_MS = 60000;
  const HISTORY_MINUTES = 15;
  const SVG = 'http://www.w3.org/2000/svg';
  const script = new URL(document.currentScript.src);
  // a page opened as http://user:password@host/... has them in its URLs too, and fetch refuses such URLs: the
  // browser keeps the sign-in, not the URL
  script.username = '';
  script.password = '';
  const api = new URL('../../', script); // <root>/dead-letters/ui/common.js -> <root>/
  const ui = new URL('.', script);

  // ---- small DOM helpers: text only ----
  const $ = (id) => document.getElementById(id);

  /** The node with attrs as its attribute values and children appended to it, a string as a text node. */
  function filled(node, attrs, children) {
    for (const [name, value] of Object.entries(attrs || {})) {
      node.setAttribute(name, String(value));
    }
    for (const child of children) {
      node.append(child instanceof Node ? child : String(child));
    }
    return node;
  }

  function el(tag, attrs, ...children) {
    return filled(document.createElement(tag), attrs, children);
  }

  function svg(tag, attrs, ...children) {
    return filled(document.createElementNS(SVG, tag), attrs, children);
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

  return {
    MINUTE_MS: MINUTE_MS, HISTORY_MINUTES: HISTORY_MINUTES, api: api, ui: ui, $: $, el: el, svg: svg,
    setText: setText, count: count, rate: rate, when: when, topicHref: topicHref, getJson: getJson,
    minutes: minutes, barChart: barChart
  };
}());
