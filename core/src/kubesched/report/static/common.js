/* Helpers every report page shares. Text from the document is only ever set as
   textContent or attribute values through el(), never parsed as markup. */
(function () {
  "use strict";

  function data() {
    return JSON.parse(document.getElementById("kubesched-data").textContent);
  }

  /* el("td", {class: "num", title: "x"}, "text", childNode, ...) */
  function el(tag, attrs) {
    var node = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (key) {
        var value = attrs[key];
        if (value === null || value === undefined || value === false) return;
        if (key === "class") node.className = value;
        else if (key === "dataset") Object.assign(node.dataset, value);
        else node.setAttribute(key, value === true ? "" : String(value));
      });
    }
    for (var i = 2; i < arguments.length; i++) append(node, arguments[i]);
    return node;
  }

  function append(node, child) {
    if (child === null || child === undefined || child === false) return;
    if (Array.isArray(child)) { child.forEach(function (c) { append(node, c); }); return; }
    node.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }

  function trim(x) {
    return x.toFixed(x >= 100 ? 0 : x >= 10 ? 1 : 2).replace(/\.?0+$/, "");
  }

  function cpu(millicores) {
    if (millicores === 0) return "0";
    if (millicores % 1000 === 0) return String(millicores / 1000);
    return millicores < 1000 ? millicores + "m" : trim(millicores / 1000);
  }

  var UNITS = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
  function bytes(n) {
    var i = 0;
    while (n >= 1024 && i < UNITS.length - 1) { n /= 1024; i++; }
    return trim(n) + " " + UNITS[i];
  }

  function count(n) { return String(n); }

  function fraction(requested, allocatable) {
    if (allocatable > 0) return requested / allocatable;
    return requested > 0 ? Infinity : 0;
  }

  function percent(f) {
    return f === Infinity ? "∞" : Math.round(f * 100) + "%";
  }

  /* A bar of requested over allocatable, its numbers as text over it. */
  function bar(requested, allocatable, format) {
    var f = fraction(requested, allocatable);
    var fill = el("div", {class: "fill" + (f >= 1 ? " full" : f >= 0.85 ? " high" : "")});
    fill.style.width = Math.min(100, f * 100) + "%";
    var text = format(requested) + " / " + format(allocatable) + " (" + percent(f) + ")";
    return el("div", {class: "bar", title: text}, fill, el("span", {class: "text"}, text));
  }

  function pill(text, prefix) {
    return el("span", {class: "pill " + prefix + "-" + text}, text);
  }

  /* Run fn at most once per `ms` of quiet: typing in a search box over 10,000 rows. */
  function debounce(fn, ms) {
    var timer = null;
    return function () {
      var args = arguments;
      clearTimeout(timer);
      timer = setTimeout(function () { fn.apply(null, args); }, ms);
    };
  }

  /* Tabulator sets a column title, and a tooltip given as text, as innerHTML: every table
     takes these two so that names from the document stay text. */
  function textTitle(cell) { return el("span", null, cell.getValue()); }
  function textTooltip(e, cell) {
    var value = cell.getValue();
    return value === null || value === undefined || value === "" ? "" : el("div", null, value);
  }
  var COLUMN_DEFAULTS = {titleFormatter: textTitle};

  /* A plugin's name that may wrap between its words: NodeResources<wbr>Fit. */
  function camel(name) {
    var title = el("span");
    String(name).split(/(?=[A-Z][a-z])/).forEach(function (word, i) {
      if (i) title.appendChild(el("wbr"));
      title.appendChild(document.createTextNode(word));
    });
    return title;
  }

  window.kubesched = {
    textTitle: textTitle, textTooltip: textTooltip, COLUMN_DEFAULTS: COLUMN_DEFAULTS, camel: camel,
    data: data, el: el, cpu: cpu, bytes: bytes, count: count, fraction: fraction,
    percent: percent, bar: bar, pill: pill, debounce: debounce,
  };
})();
