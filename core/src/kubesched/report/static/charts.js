/* Line charts over simulated time with uPlot, for the replay and comparison pages. */
(function () {
  "use strict";
  var K = window.kubesched, el = K.el;
  var COLOURS = ["#326ce5", "#e8710a", "#1e8e3e", "#d93025", "#9334e6", "#12b5cb", "#f9ab00", "#5f6368"];
  var HEIGHT = 260;
  var drawn = [];

  function seconds(v) {
    if (v === null || v === undefined) return "—";
    var a = Math.abs(v);
    if (a >= 7200) return +(v / 3600).toFixed(2) + " h";
    if (a >= 120) return +(v / 60).toFixed(1) + " min";
    if (a >= 1 || a === 0) return +v.toFixed(2) + " s";
    return +(v * 1000).toFixed(1) + " ms";
  }
  function percent(v) { return v === null || v === undefined ? "—" : +(v * 100).toFixed(1) + "%"; }
  function whole(v) { return v === null || v === undefined ? "—" : String(Math.round(v)); }

  /* Draw `lines` ({label, values, colour?, dash?, spanGaps?}) over the times `xs` into
     `holder`; a holder with nothing to draw says so. */
  function line(holder, xs, lines, yLabel, format) {
    lines = lines.filter(function (l) { return l.values; });
    if (!xs.length || !lines.length) {
      holder.appendChild(el("div", {class: "empty"}, "Nothing was sampled for this chart."));
      return null;
    }
    var series = [{label: "time", value: function (u, v) { return seconds(v); }}];
    lines.forEach(function (l, i) {
      series.push({label: l.label, stroke: l.colour || COLOURS[i % COLOURS.length], width: 1.5,
        dash: l.dash, spanGaps: !!l.spanGaps, value: function (u, v) { return format(v); }});
    });
    var plot = new uPlot({
      width: holder.clientWidth || 560, height: HEIGHT,
      scales: {x: {time: false}},
      cursor: {drag: {x: true, y: false}},
      series: series,
      axes: [
        {space: 70, values: function (u, vals) { return vals.map(seconds); }},
        {label: yLabel, size: 64, values: function (u, vals) { return vals.map(format); }},
      ],
    }, [xs].concat(lines.map(function (l) { return l.values; })), holder);
    holder.dataset.series = lines.length;
    drawn.push([plot, holder]);
    return plot;
  }

  /* One chart, one figure: a caption and a holder, appended to `parent`. */
  function figure(parent, id, caption) {
    var holder = el("div", {class: "chart", id: id});
    parent.appendChild(el("figure", null, el("figcaption", null, caption), holder));
    return holder;
  }

  window.addEventListener("resize", K.debounce(function () {
    drawn.forEach(function (c) { c[0].setSize({width: c[1].clientWidth, height: HEIGHT}); });
  }, 200));

  K.charts = {COLOURS: COLOURS, seconds: seconds, percent: percent, whole: whole, line: line,
    figure: figure, drawn: drawn};
})();
