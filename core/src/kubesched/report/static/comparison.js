/* The page of a ComparisonResult: the metric filter, the pods placed differently (one column
   per configuration) and, for a pod, each configuration's view of the nodes chosen. */
(function () {
  "use strict";
  var K = window.kubesched, el = K.el;
  var DATA = K.data();
  var CONFIGS = DATA.configs, DIFFS = DATA.differences;

  var only = document.getElementById("only-differing");
  only.addEventListener("change", function () {
    document.querySelector("table.metrics").classList.toggle("only-differing", only.checked);
  });

  /* ---------- each configuration's series (comparisons of replays) ---------- */
  var holder = document.getElementById("compare-charts");
  if (holder) {
    var C = K.charts, SERIES = DATA.series;
    var withSeries = CONFIGS.filter(function (c) { return (SERIES[c].time || []).length; });
    /* uPlot draws lines over one x axis: join the configs' times, null where one lacks a sample */
    var perConfig = function (column) {
      return uPlot.join(withSeries.map(function (c) { return [SERIES[c].time, SERIES[c][column] || []]; }));
    };
    /* every figure is laid out first, then drawn: a chart drawn before the grid has all its
       cells would take the width of a lone cell */
    var pending = [];
    var chartOf = function (caption, column, yLabel, format) {
      pending.push([C.figure(holder, "chart-" + column, caption), column, yLabel, format]);
    };
    var draw = function (figure, column, yLabel, format) {
      var joined = perConfig(column);
      var lines = withSeries.map(function (c, i) {
        return {label: c, values: SERIES[c][column] ? joined[i + 1] : null, spanGaps: true};
      });
      C.line(figure, joined[0], lines, yLabel, format);
    };
    var resources = [];
    withSeries.forEach(function (c) {
      Object.keys(SERIES[c]).forEach(function (k) {
        var r = k.slice(0, -"_allocation".length);
        if (/_allocation$/.test(k) && resources.indexOf(r) < 0) resources.push(r);
      });
    });
    resources.forEach(function (r) {
      chartOf(r + " allocated over allocatable", r + "_allocation", "of allocatable", C.percent);
    });
    chartOf("Pods pending", "pending", "pods", C.whole);
    chartOf("Pods running", "running", "pods", C.whole);
    chartOf("Scheduling latency p99", "latency_p99", "latency", C.seconds);
    pending.forEach(function (p) { draw(p[0], p[1], p[2], p[3]); });
  }

  if (!DIFFS.length) return;

  /* Where a pod's life ended: its node, or its state when it has none. */
  function placement(p) {
    if (!p) return "not served";
    return p.node || p.status;
  }

  var rows = DIFFS.map(function (d, i) {
    var row = {i: i, pod: d.pod, kind: d.kind === "placedBySome" ? "placed by some" : "placed differently"};
    var text = [d.pod];
    CONFIGS.forEach(function (c, j) {
      row["c" + j] = placement(d.placements[c]);
      text.push(row["c" + j]);
    });
    row._text = text.join("\n").toLowerCase();
    return row;
  });

  function placementCell(cell) {
    var v = cell.getValue();
    var config = CONFIGS[Number(cell.getField().slice(1))];  /* field "c<j>": the j-th config */
    var p = DIFFS[cell.getRow().getData().i].placements[config];
    if (p && !p.node) return K.pill(v, "status");
    return el("span", {class: p ? "node" : "note"}, v);
  }

  var columns = [
    {title: "Pod", field: "pod", sorter: "string", widthGrow: 2.5, minWidth: 160},
    {title: "Difference", field: "kind", sorter: "string", width: 150},
  ];
  CONFIGS.forEach(function (c, j) {
    columns.push({title: c, field: "c" + j, sorter: "string", widthGrow: 1.5,
      formatter: placementCell, tooltip: K.textTooltip});
  });
  var table = new Tabulator("#difference-table", {
    data: rows, columnDefaults: K.COLUMN_DEFAULTS, index: "i", layout: "fitColumns",
    selectableRows: 1, pagination: true, paginationSize: 25, paginationSizeSelector: [25, 50, 100],
    paginationCounter: "rows", placeholder: "No pod matches", columns: columns,
  });
  var search = document.getElementById("pod-search");
  var counter = document.getElementById("pod-count");
  function applyFilter() {
    var words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
    if (!words.length) table.clearFilter();
    else table.setFilter(function (row) {
      for (var w = 0; w < words.length; w++) if (row._text.indexOf(words[w]) < 0) return false;
      return true;
    });
  }
  table.on("tableBuilt", function () { search.addEventListener("input", K.debounce(applyFilter, 120)); });
  table.on("dataFiltered", function (filters, shown) {
    counter.textContent = (filters.length ? shown.length + " of " : "") + rows.length + " pods";
  });
  counter.textContent = rows.length + " pods";
  table.on("rowClick", function (e, row) { showDetail(row.getData().i); });

  /* ---------- one pod: each configuration's view of the chosen nodes ---------- */
  var detail = document.getElementById("difference-detail");

  function view(d, config) {
    var box = el("div", {class: "view", dataset: {config: config}});
    var p = d.placements[config];
    box.appendChild(el("h4", null, config, " → ", placement(p)));
    if (p && p.message) box.appendChild(el("p", {class: "note message"}, p.message));
    var nodes = d.explanations[config] || {};
    var names = Object.keys(nodes);
    if (!names.length) {
      box.appendChild(el("p", {class: "note"}, "No per-node explanation: replays do not record one."));
      return box;
    }
    var plugins = [];
    names.forEach(function (n) {
      Object.keys(nodes[n].scores || {}).forEach(function (s) { if (plugins.indexOf(s) < 0) plugins.push(s); });
    });
    var head = el("tr", null, el("th", null, "Node"), el("th", null, "Filter"), el("th", {class: "num"}, "Total"),
      plugins.map(function (s) { return el("th", {class: "num"}, K.camel(s)); }));
    var body = el("tbody");
    names.forEach(function (n) {
      var e = nodes[n];
      var chosen = p && p.node === n;
      var tr = el("tr", {class: chosen ? "chosen" : null, dataset: {node: n}}, el("td", null, n));
      if (!e.evaluated) {
        tr.appendChild(el("td", {class: "unevaluated", colspan: 2 + plugins.length}, "not looked at in this attempt"));
      } else {
        tr.appendChild(el("td", {title: e.filter ? e.filter.reasons.join("; ") : ""},
          e.filter ? [K.pill(e.filter.code, "code"), " ", e.filter.plugin || ""] : K.pill("Success", "code")));
        tr.appendChild(el("td", {class: "num total"}, e.total === null ? "" : e.total));
        plugins.forEach(function (s) {
          var v = (e.scores || {})[s];
          tr.appendChild(el("td", {class: "num score", dataset: {plugin: s}}, v ? [el("span", {class: "weighted"}, v.weighted),
            el("span", {class: "normalized"}, "(" + v.normalized + ")")] : ""));
        });
      }
      body.appendChild(tr);
    });
    box.appendChild(el("table", {class: "plain"}, el("thead", null, head), body));
    return box;
  }

  function showDetail(i) {
    var d = DIFFS[i];
    detail.textContent = "";
    detail.hidden = false;
    detail.dataset.pod = d.pod;
    detail.appendChild(el("h3", null, el("code", null, d.pod)));
    detail.appendChild(el("p", {class: "note"}, "Weighted scores, normalised ones in brackets; the node each configuration chose is marked."));
    detail.appendChild(el("div", {class: "views"}, CONFIGS.map(function (c) { return view(d, c); })));
    table.deselectRow();
    table.selectRow(i);
    detail.scrollIntoView({block: "nearest"});
  }
  window.kubeschedReport = {differences: table, showDetail: showDetail};
})();
