/* The page of a SimulationResult: the pod table and each pod's explanation, the
   nodes' use as bars and a heat strip, and the cluster's totals. */
(function () {
  "use strict";
  var K = window.kubesched, el = K.el;
  var DATA = K.data();
  var RESULTS = DATA.results, NODES = DATA.nodes;

  function extendedFormat(name) {
    return /hugepages|storage/.test(name) ? K.bytes : K.count;
  }

  /* ---------- cluster totals ---------- */
  function clusterTotals() {
    var box = document.getElementById("cluster-utilisation");
    var totals = {cpu: [0, 0], memory: [0, 0], pods: [0, 0]};
    var extended = {};
    NODES.forEach(function (n) {
      totals.cpu[0] += n.cpu.requestedMillicores; totals.cpu[1] += n.cpu.allocatableMillicores;
      totals.memory[0] += n.memory.requestedBytes; totals.memory[1] += n.memory.allocatableBytes;
      totals.pods[0] += n.pods.count; totals.pods[1] += n.pods.allocatable;
      Object.keys(n.extendedResources || {}).forEach(function (r) {
        var t = extended[r] || (extended[r] = [0, 0]);
        t[0] += n.extendedResources[r].requested; t[1] += n.extendedResources[r].allocatable;
      });
    });
    var rows = [["CPU", totals.cpu, K.cpu], ["Memory", totals.memory, K.bytes], ["Pods", totals.pods, K.count]];
    Object.keys(extended).sort().forEach(function (r) { rows.push([r, extended[r], extendedFormat(r)]); });
    rows.forEach(function (row) {
      box.appendChild(el("div", {class: "total", dataset: {resource: row[0]}},
        el("div", {class: "name"}, row[0], " requested in the cluster"), K.bar(row[1][0], row[1][1], row[2])));
    });
  }

  /* ---------- the pod table ---------- */
  var podRows = RESULTS.map(function (r, i) {
    var text = [r.pod, r.profile, r.status, r.node || "", r.nominatedNode || "", r.message].join("\n").toLowerCase();
    return {
      i: i, pod: r.pod, profile: r.profile, status: r.status, node: r.node || "",
      attempts: r.attempts, victims: r.victims.length, explained: r.nodes ? "yes" : "",
      message: r.message || r.stoppedTrying || "", _text: text,
    };
  });

  function statusCell(cell) { return K.pill(cell.getValue(), "status"); }

  var podTable = new Tabulator("#pod-table", {
    data: podRows,
    columnDefaults: K.COLUMN_DEFAULTS,
    index: "i",
    selectableRows: 1,
    layout: "fitColumns",
    pagination: true,
    paginationSize: 25,
    paginationSizeSelector: [25, 50, 100, 250],
    paginationCounter: "rows",
    placeholder: "No pod matches",
    columns: [
      {title: "Pod", field: "pod", sorter: "string", widthGrow: 3, minWidth: 180},
      {title: "Status", field: "status", formatter: statusCell, width: 130},
      {title: "Node", field: "node", sorter: "string", widthGrow: 2},
      {title: "Profile", field: "profile", sorter: "string", widthGrow: 1.5},
      {title: "Attempts", field: "attempts", sorter: "number", hozAlign: "right", width: 115},
      {title: "Victims", field: "victims", sorter: "number", hozAlign: "right", width: 105},
      {title: "Explained", field: "explained", width: 120},
      {title: "Message", field: "message", sorter: "string", widthGrow: 5, tooltip: K.textTooltip},
    ],
  });

  var search = document.getElementById("pod-search");
  var statusSelect = document.getElementById("pod-status");
  var counter = document.getElementById("pod-count");

  function applyPodFilter() {
    var words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
    var status = statusSelect.value;
    if (!words.length && !status) podTable.clearFilter();
    else podTable.setFilter(function (row) {
      if (status && row.status !== status) return false;
      for (var w = 0; w < words.length; w++) if (row._text.indexOf(words[w]) < 0) return false;
      return true;
    });
  }

  podTable.on("tableBuilt", function () {
    search.addEventListener("input", K.debounce(applyPodFilter, 120));
    statusSelect.addEventListener("change", applyPodFilter);
    podFromHash();
    window.addEventListener("hashchange", podFromHash);
  });

  /* #pod=NAMESPACE/NAME opens that pod's explanation: a link to one decision. */
  function podFromHash() {
    if (location.hash.indexOf("#pod=") === 0) showPod(decodeURIComponent(location.hash.slice(5)));
  }
  podTable.on("dataFiltered", function (filters, rows) {
    counter.textContent = (filters.length ? rows.length + " of " : "") + podRows.length + " pods";
  });
  podTable.on("rowClick", function (e, row) { showDetail(row.getData().i); });
  counter.textContent = podRows.length + " pods";

  Array.prototype.forEach.call(document.querySelectorAll(".reason-filter"), function (button) {
    button.addEventListener("click", function () {
      search.value = button.dataset.reason;
      statusSelect.value = "";
      applyPodFilter();
      document.getElementById("pods").scrollIntoView();
    });
  });

  function showPod(key) {
    for (var i = 0; i < RESULTS.length; i++) if (RESULTS[i].pod === key) return showDetail(i);
  }

  /* ---------- one pod's explanation ---------- */
  var detail = document.getElementById("pod-detail");
  var explainTable = null;

  function list(items) {
    return items.length ? items.map(function (x, i) { return [i ? ", " : "", el("code", null, x)]; }) : "none";
  }

  function showDetail(index) {
    var r = RESULTS[index];
    if (explainTable) { explainTable.destroy(); explainTable = null; }
    detail.textContent = "";
    detail.hidden = false;
    detail.dataset.pod = r.pod;
    detail.appendChild(el("button", {type: "button", class: "link close", id: "pod-detail-close"}, "close ✕"));
    detail.appendChild(el("h3", null, el("code", null, r.pod), " ", K.pill(r.status, "status")));
    var facts = el("dl", null,
      el("dt", null, "Node"), el("dd", {class: "chosen-node"}, r.node || "none"),
      el("dt", null, "Profile"), el("dd", null, r.profile),
      el("dt", null, "Attempts"), el("dd", null, r.attempts));
    if (r.message) facts.append(el("dt", null, "Message"), el("dd", {class: "message"}, r.message));
    if (r.nominatedNode) facts.append(el("dt", null, "Nominated node"), el("dd", null, r.nominatedNode));
    if (r.victims.length) facts.append(el("dt", null, "Victims"), el("dd", {class: "victims"}, list(r.victims)));
    if (r.preemptedBy) facts.append(el("dt", null, "Preempted by"), el("dd", null, el("code", null, r.preemptedBy)));
    if (r.stoppedTrying) facts.append(el("dt", null, "Stopped trying"), el("dd", null, r.stoppedTrying));
    if (r.request) facts.append(el("dt", null, "Effective request"), el("dd", {class: "request"},
      Object.keys(r.request).map(function (name) { return name + " " + amount(name, r.request[name]); }).join(", ")));
    var volumes = Object.keys(r.volumes || {});
    if (volumes.length) facts.append(el("dt", null, "Volumes"), el("dd", null, volumes.map(function (c, i) {
      return [i ? ", " : "", el("code", null, c), " → ", el("code", null, r.volumes[c])];
    })));
    detail.appendChild(facts);
    if (r.preemption) detail.appendChild(preemption(r.preemption));
    if (r.nodes) explain(r);
    else detail.appendChild(el("p", {class: "note"},
      "No per-node explanation for this pod: run kubesched simulate with --explain, or --explain-pod " + r.pod + "."));
    detail.querySelector("#pod-detail-close").addEventListener("click", function () {
      if (explainTable) { explainTable.destroy(); explainTable = null; }
      detail.hidden = true;
    });
    podTable.deselectRow();
    podTable.selectRow(index);
    detail.scrollIntoView({block: "nearest"});
  }

  function preemption(p) {
    var box = el("div", {class: "preemption"});
    box.appendChild(el("h3", null, "Preemption"));
    box.appendChild(el("p", null, "Chose ", el("code", {class: "preemption-chosen"}, p.chosen),
      ", decided by: ", el("em", null, p.decidedBy), "."));
    var body = el("tbody");
    p.candidates.forEach(function (c) {
      body.appendChild(el("tr", {class: c.node === p.chosen ? "chosen" : null},
        el("td", null, c.node), el("td", null, list(c.victims)), el("td", {class: "num"}, c.pdbViolations)));
    });
    box.appendChild(el("table", {class: "plain candidates"},
      el("thead", null, el("tr", null, el("th", null, "Candidate node"), el("th", null, "Victims (most important first)"),
        el("th", {class: "num"}, "PDB violations"))), body));
    return box;
  }

  function scoreCell(cell) {
    var s = cell.getValue();
    if (!s) return "";
    return el("span", {class: "score", title: "normalised " + s.normalized + ", weighted " + s.weighted},
      el("span", {class: "weighted"}, s.weighted), el("span", {class: "normalized"}, "(" + s.normalized + ")"));
  }

  function camelTitle(cell) { return K.camel(cell.getValue()); }

  /* cpu in cores, memory, storage and hugepages in bytes, the rest as counts. */
  function amount(resource, n) {
    if (resource === "cpu") return K.cpu(n);
    if (resource === "memory" || resource === "ephemeral-storage" || resource.indexOf("hugepages-") === 0) return K.bytes(n);
    return K.count(n);
  }

  function freeAmounts(resources) {
    return Object.keys(resources || {}).map(function (name) {
      var x = resources[name];
      return name + " " + amount(name, x.free) + " / " + amount(name, x.allocatable);
    }).join(", ");
  }

  function explain(r) {
    var names = Object.keys(r.nodes);
    var plugins = [], extenders = [];
    names.forEach(function (n) {
      Object.keys(r.nodes[n].scores).forEach(function (p) { if (plugins.indexOf(p) < 0) plugins.push(p); });
      Object.keys(r.nodes[n].extenders || {}).forEach(function (x) { if (extenders.indexOf(x) < 0) extenders.push(x); });
    });
    var rows = names.map(function (n, order) {
      var e = r.nodes[n];
      var row = {order: order, node: n, code: e.filter.code, plugin: e.filter.plugin || "",
        reasons: e.filter.reasons.join("; "), total: e.total, chosen: n === r.node, free: freeAmounts(e.resources)};
      plugins.forEach(function (p, j) { row["s" + j] = e.scores[p] || null; });
      extenders.forEach(function (x, j) {
        var v = (e.extenders || {})[x];
        row["x" + j] = v ? [v.filter || "", v.reasons.join("; "), v.score === null ? "" : v.score + " → " + v.weighted].join(" ").trim() : "";
      });
      return row;
    });
    var feasible = rows.filter(function (x) { return x.code === "Success"; }).length;
    var looked = names.length, groups = r.nodesNotShown || [];
    groups.forEach(function (g) {
      /* the nodes a short explanation leaves out, one row per verdict */
      var more = g.count > g.examples.length ? ", …" : "";
      rows.push({order: rows.length, node: g.count + " other node(s): " + g.examples.join(", ") + more,
        code: g.filter.code, plugin: g.filter.plugin || "", total: null, chosen: false, free: "",
        reasons: g.filter.code === "Success" ? "passed Filter, scored below the nodes shown" : g.filter.reasons.join("; ")});
      looked += g.count;
      if (g.filter.code === "Success") feasible += g.count;
    });
    detail.appendChild(el("h3", null, groups.length ? "The nodes' Filter and Score results" : "Every node's Filter and Score results"));
    detail.appendChild(el("p", {class: "note"}, looked + " node(s) looked at, " + feasible +
      " passed Filter" + (groups.length ? "; " + names.length + " shown, the others counted by verdict" : "") +
      ". Scores show the weighted score, the normalised one (0–100) in brackets; " +
      "the highest total wins" + (r.node ? ": " + r.node + "." : ".")));
    var columns = [
      {title: "Node", field: "node", sorter: "string", widthGrow: 2, minWidth: 140},
      {title: "Filter", field: "code", formatter: function (c) { return K.pill(c.getValue(), "code"); }, width: 235},
      {title: "Total", field: "total", sorter: "number", hozAlign: "right", width: 80},
    ];
    plugins.forEach(function (p, j) {
      columns.push({title: p, field: "s" + j, formatter: scoreCell, hozAlign: "right", minWidth: 95,
        headerWordWrap: true, titleFormatter: camelTitle,
        sorter: function (a, b) { return (a ? a.weighted : -1) - (b ? b.weighted : -1); }});
    });
    extenders.forEach(function (x, j) {
      columns.push({title: "extender " + x, field: "x" + j, widthGrow: 2, headerWordWrap: true});
    });
    columns.push({title: "Rejected by", field: "plugin", sorter: "string", minWidth: 110, widthGrow: 1.5});
    columns.push({title: "Reasons", field: "reasons", widthGrow: 3, minWidth: 160, tooltip: K.textTooltip});
    if (rows.some(function (x) { return x.free; })) {
      columns.push({title: "Free / allocatable", field: "free", widthGrow: 2, minWidth: 160, tooltip: K.textTooltip});
    }
    var holder = el("div", {id: "explain-table"});
    detail.appendChild(holder);
    explainTable = new Tabulator(holder, {
      data: rows, columnDefaults: K.COLUMN_DEFAULTS, index: "node", layout: "fitColumns", pagination: true, paginationSize: 20,
      paginationCounter: "rows", columns: columns,
      initialSort: r.node ? [{column: "total", dir: "desc"}] : [],
      rowFormatter: function (row) { if (row.getData().chosen) row.getElement().classList.add("chosen"); },
    });
  }

  /* ---------- nodes ---------- */
  var resources = [];
  NODES.forEach(function (n) {
    Object.keys(n.extendedResources || {}).forEach(function (r) { if (resources.indexOf(r) < 0) resources.push(r); });
  });
  resources.sort();
  var nodeRows = NODES.map(function (n, i) {
    var row = {i: i, name: n.name, node: n,
      cpu: K.fraction(n.cpu.requestedMillicores, n.cpu.allocatableMillicores),
      memory: K.fraction(n.memory.requestedBytes, n.memory.allocatableBytes),
      pods: K.fraction(n.pods.count, n.pods.allocatable)};
    var peak = Math.max(row.cpu, row.memory, row.pods);
    resources.forEach(function (r, j) {
      var e = (n.extendedResources || {})[r];
      row["r" + j] = e ? K.fraction(e.requested, e.allocatable) : -1;
      if (e && e.allocatable > 0) peak = Math.max(peak, row["r" + j]);
    });
    row.peak = peak;
    return row;
  });

  function barColumn(title, field, pick, format) {
    return {title: title, field: field, sorter: "number", minWidth: 170, widthGrow: 2,
      formatter: function (cell) {
        var v = pick(cell.getRow().getData().node);
        return v ? K.bar(v[0], v[1], format) : "";
      }};
  }
  var nodeColumns = [
    {title: "Node", field: "name", sorter: "string", widthGrow: 2, minWidth: 140},
    barColumn("CPU", "cpu", function (n) { return [n.cpu.requestedMillicores, n.cpu.allocatableMillicores]; }, K.cpu),
    barColumn("Memory", "memory", function (n) { return [n.memory.requestedBytes, n.memory.allocatableBytes]; }, K.bytes),
    barColumn("Pods", "pods", function (n) { return [n.pods.count, n.pods.allocatable]; }, K.count),
  ];
  resources.forEach(function (r, j) {
    nodeColumns.push(barColumn(r, "r" + j, function (n) {
      var e = (n.extendedResources || {})[r];
      return e ? [e.requested, e.allocatable] : null;
    }, extendedFormat(r)));
  });
  var nodeTable = new Tabulator("#node-table", {
    data: nodeRows, columnDefaults: K.COLUMN_DEFAULTS, index: "i", layout: "fitColumns", pagination: true, paginationSize: 25,
    paginationSizeSelector: [25, 50, 100, 250], paginationCounter: "rows", placeholder: "No node matches",
    columns: nodeColumns,
  });
  var nodeSearch = document.getElementById("node-search");
  var nodeCounter = document.getElementById("node-count");
  function applyNodeFilter() {
    var q = nodeSearch.value.toLowerCase().trim();
    if (!q) nodeTable.clearFilter();
    else nodeTable.setFilter(function (row) { return row.name.toLowerCase().indexOf(q) >= 0; });
  }
  nodeTable.on("tableBuilt", function () { nodeSearch.addEventListener("input", K.debounce(applyNodeFilter, 120)); });
  nodeTable.on("dataFiltered", function (filters, rows) {
    nodeCounter.textContent = (filters.length ? rows.length + " of " : "") + nodeRows.length + " nodes";
  });
  nodeCounter.textContent = nodeRows.length + " nodes";

  /* The heat strip: one cell per node, coloured by its busiest resource. */
  var canvas = document.getElementById("node-heat");
  var CELL = NODES.length <= 500 ? 16 : 10, GAP = 1;
  function colour(f) {
    if (f === Infinity || f > 1) f = 1;
    var hue = 210 - 210 * f;  /* blue (idle) to red (full) */
    return "hsl(" + hue + ", 70%, " + (f === 0 ? 92 : 62) + "%)";
  }
  function drawHeat() {
    if (!nodeRows.length) { canvas.hidden = true; return; }
    var width = canvas.clientWidth || 800;
    var perRow = Math.max(1, Math.floor(width / (CELL + GAP)));
    var lines = Math.ceil(nodeRows.length / perRow);
    var scale = window.devicePixelRatio || 1;
    canvas.style.height = lines * (CELL + GAP) + "px";
    canvas.width = width * scale;
    canvas.height = lines * (CELL + GAP) * scale;
    var ctx = canvas.getContext("2d");
    ctx.scale(scale, scale);
    nodeRows.forEach(function (row, i) {
      ctx.fillStyle = colour(row.peak);
      ctx.fillRect((i % perRow) * (CELL + GAP), Math.floor(i / perRow) * (CELL + GAP), CELL, CELL);
    });
    canvas.dataset.perRow = perRow;
  }
  canvas.addEventListener("click", function (e) {
    var perRow = Number(canvas.dataset.perRow);
    var rect = canvas.getBoundingClientRect();
    var i = Math.floor((e.clientY - rect.top) / (CELL + GAP)) * perRow + Math.floor((e.clientX - rect.left) / (CELL + GAP));
    if (i >= 0 && i < nodeRows.length) {
      nodeSearch.value = nodeRows[i].name;
      applyNodeFilter();
    }
  });
  canvas.addEventListener("mousemove", function (e) {
    var perRow = Number(canvas.dataset.perRow);
    var rect = canvas.getBoundingClientRect();
    var i = Math.floor((e.clientY - rect.top) / (CELL + GAP)) * perRow + Math.floor((e.clientX - rect.left) / (CELL + GAP));
    canvas.title = i >= 0 && i < nodeRows.length ? nodeRows[i].name + ": busiest resource at " + K.percent(nodeRows[i].peak) : "";
  });
  window.addEventListener("resize", K.debounce(drawHeat, 200));

  clusterTotals();
  drawHeat();
  window.kubeschedReport = {pods: podTable, nodes: nodeTable, showPod: showPod};
})();
