// Whether an element is hidden by a closed fold (a <details> not open), not in that fold's summary, however deep
// the folds nest. Chromium does not lay out what a closed fold hides, and reading one width in it lays that fold
// out alone, so the pages (site.js) and the printed book (derive.site.book) ask this first.
function deriveFolded(el) {
  var closed = function (e) { return e && e.closest("details:not([open])"); };
  for (var d = closed(el); d; d = closed(d.parentElement)) {
    var summary = d.querySelector(":scope > summary");
    if (!summary || !summary.contains(el)) return true;
  }
  return false;
}
