/* The page of a ReplayResult: the sampled series as uPlot charts, and each pod's life
   as a bar on the run's time axis in a Tabulator table. */
(function () {
  "use strict";
  var K = window.kubesched, el = K.el;
  var DATA = K.data();
  var S = DATA.series, TIME = S.time || [], SPAN = DATA.span || 0;
  var C = K.charts, seconds = C.seconds;

  function chart(id, lines, yLabel, format) {
    C.line(document.getElementById(id), TIME, lines, yLabel, format);
  }

  var utilisation = [];
  DATA.resources.forEach(function (r, i) {
    var colour = C.COLOURS[i % C.COLOURS.length];
    utilisation.push({label: r + " allocated", values: S[r + "_allocation"], colour: colour});
    utilisation.push({label: r + " requested", values: S[r + "_request"], colour: colour, dash: [6, 4]});
  });
  chart("chart-utilisation", utilisation, "of allocatable", C.percent);
  chart("chart-pods", [
    {label: "running", values: S.running}, {label: "pending", values: S.pending},
  ], "pods", C.whole);
  chart("chart-pending", DATA.reasons.map(function (r) {
    return {label: r, values: S["pending_" + r]};
  }), "pending pods", C.whole);
  chart("chart-latency", [
    /* a sample with no pod bound since the previous one has no latency: join across it */
    {label: "p50", values: S.latency_p50, spanGaps: true},
    {label: "p90", values: S.latency_p90, spanGaps: true},
    {label: "p99", values: S.latency_p99, spanGaps: true},
  ], "latency", seconds);

  /* ---------- the pods' timeline ---------- */
  function position(from, to) {
    var left = SPAN > 0 ? (100 * from) / SPAN : 0;
    var width = SPAN > 0 ? (100 * (to - from)) / SPAN : 0;
    return {left: Math.max(0, Math.min(100, left)), width: Math.max(0.3, Math.min(100 - left, width))};
  }
  function segment(kind, from, to, text) {
    var p = position(from, to);
    var span = el("span", {class: kind, title: text});
    span.style.left = p.left + "%";
    span.style.width = p.width + "%";
    return span;
  }
  function timeline(cell) {
    var p = cell.getRow().getData().pod;
    var end = p.left === null ? SPAN : p.left;
    var bar = el("div", {class: "timeline"});
    var boundAt = p.bound === null ? end : p.bound;
    bar.appendChild(segment("waiting", p.created, boundAt,
      "waiting from " + seconds(p.created) + " to " + seconds(boundAt)));
    if (p.bound !== null) {
      bar.appendChild(segment("running", p.bound, end, "on " + (p.node || "?") + " from " +
        seconds(p.bound) + (p.left === null ? " to the end" : " to " + seconds(p.left))));
    }
    return bar;
  }

  var rows = DATA.pods.map(function (p, i) {
    return {i: i, pod: p, name: p.pod, state: p.state, node: p.node || "", created: p.created,
      bound: p.bound, latency: p.latency, attempts: p.attempts, left: p.left,
      preemptedBy: p.preempted_by || "", _text: [p.pod, p.node || "", p.state, p.preempted_by || ""].join("\n").toLowerCase()};
  });
  function secondsCell(cell) { return seconds(cell.getValue()); }
  var table = new Tabulator("#pod-table", {
    data: rows, columnDefaults: K.COLUMN_DEFAULTS, index: "i", layout: "fitColumns",
    pagination: true, paginationSize: 25, paginationSizeSelector: [25, 50, 100, 250],
    paginationCounter: "rows", placeholder: "No pod matches",
    columns: [
      {title: "Pod", field: "name", sorter: "string", widthGrow: 2.5, minWidth: 160},
      {title: "State", field: "state", width: 115, formatter: function (c) { return K.pill(c.getValue(), "state"); }},
      {title: "Node", field: "node", sorter: "string", widthGrow: 1.5},
      {title: "Created", field: "created", sorter: "number", hozAlign: "right", width: 95, formatter: secondsCell},
      {title: "Latency", field: "latency", sorter: "number", hozAlign: "right", width: 95, formatter: secondsCell},
      {title: "Left", field: "left", sorter: "number", hozAlign: "right", width: 95, formatter: secondsCell},
      {title: "Attempts", field: "attempts", sorter: "number", hozAlign: "right", width: 100},
      {title: "Preempted by", field: "preemptedBy", sorter: "string", widthGrow: 1.5, tooltip: K.textTooltip},
      {title: "Timeline", field: "created", headerSort: false, widthGrow: 4, minWidth: 200, formatter: timeline},
    ],
  });
  var search = document.getElementById("pod-search");
  var stateSelect = document.getElementById("pod-state");
  var counter = document.getElementById("pod-count");
  function applyFilter() {
    var words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
    var state = stateSelect.value;
    if (!words.length && !state) table.clearFilter();
    else table.setFilter(function (row) {
      if (state && row.state !== state) return false;
      for (var w = 0; w < words.length; w++) if (row._text.indexOf(words[w]) < 0) return false;
      return true;
    });
  }
  table.on("tableBuilt", function () {
    search.addEventListener("input", K.debounce(applyFilter, 120));
    stateSelect.addEventListener("change", applyFilter);
  });
  table.on("dataFiltered", function (filters, shown) {
    counter.textContent = (filters.length ? shown.length + " of " : "") + rows.length + " pods";
  });
  counter.textContent = rows.length + " pods";
  window.kubeschedReport = {pods: table, charts: C.drawn};
})();
