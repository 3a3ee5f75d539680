// Point at a node of the claims graph: its arrows (what it uses, what uses it) are highlighted.
document.querySelectorAll("svg.claims-graph g.node").forEach(function (node) {
  var id = node.getAttribute("data-id");
  node.addEventListener("mouseenter", function () {
    document.querySelectorAll("svg.claims-graph path.edge").forEach(function (edge) {
      if (edge.getAttribute("data-from") === id || edge.getAttribute("data-to") === id) {
        edge.classList.add("hl");
      }
    });
  });
  node.addEventListener("mouseleave", function () {
    document.querySelectorAll("svg.claims-graph path.edge.hl").forEach(function (edge) {
      edge.classList.remove("hl");
    });
  });
});

// The filter above the claims table: keep the rows whose text holds every word typed.
(function () {
  var box = document.getElementById("claims-filter");
  if (!box) return;
  var rows = Array.prototype.slice.call(document.querySelectorAll("table.derive-claims tbody tr"));
  var count = document.getElementById("claims-shown");
  box.addEventListener("input", function () {
    var words = box.value.toLowerCase().split(/\s+/).filter(Boolean);
    var shown = 0, group = null, groupShown = false;
    rows.forEach(function (row) {
      if (row.classList.contains("group")) {
        if (group) group.hidden = !groupShown;
        group = row; groupShown = false;
        return;
      }
      var text = row.getAttribute("data-search");
      var keep = words.every(function (w) { return text.indexOf(w) >= 0; });
      row.hidden = !keep;
      if (keep) { shown += 1; groupShown = true; }
    });
    if (group) group.hidden = !groupShown;
    count.textContent = words.length ? shown + " shown" : "";
  });
})();

// Each step's summary shows two lines; a click shows it whole.
document.querySelectorAll(".derive-step-summary").forEach(function (summary) {
  summary.title = "click to read it all";
  summary.addEventListener("click", function () {
    summary.classList.add("open");
    summary.removeAttribute("title");
  });
});
