// MathJax 3, loaded from the site's own vendor/ folder: the delimiters Jupyter uses, nothing fetched.
// Math is typeset as it scrolls into view (ui/lazy), except in the printed book (window.deriveTypesetAll) or
// with ?typeset=all in the address, where every expression is typeset at once.
window.deriveTypesetAll = window.deriveTypesetAll || /[?&]typeset=all(&|$)/.test(window.location.search);
// The printed book (window.derivePrinted) has no use for the menu a right click opens, nor for the hidden MathML a
// screen reader reads (its PDF prints the same text without them): its 2,400 expressions typeset in 3 s less.
window.derivePrinted = window.derivePrinted === true;
// Typesetting everything at once (the book, ?typeset=all), MathJax's fonts are loaded before the first expression.
function deriveFontsFirst() {
  var start = MathJax.startup;
  start.document.addStyleSheet();  // MathJax's own @font-face rules, in the page before any math is typeset
  var loads = [];
  document.fonts.forEach(function (f) { if (/MJX/.test(f.family)) loads.push(f.load().catch(function () {})); });
  return Promise.all(loads).then(function () { return start.defaultPageReady(); });
}
// ui/safe (MathJax's own filter, from the site's vendor/ folder too) keeps what a caption or a title may hold from
// becoming live: \href and \url take only http(s) and relative addresses (no javascript:, no data:), \class and
// \style no names or styles of their own, \data and \html no attributes.
window.MathJax = {
  loader: { load: window.deriveTypesetAll ? ["ui/safe"] : ["ui/safe", "ui/lazy"] },
  tex: {
    inlineMath: [["$", "$"], ["\\(", "\\)"]],
    displayMath: [["$$", "$$"], ["\\[", "\\]"]],
    processEscapes: true,
    processEnvironments: true
  },
  options: {
    ignoreHtmlClass: "tex2jax_ignore",
    processHtmlClass: "tex2jax_process",
    enableMenu: !window.derivePrinted,
    enableAssistiveMml: !window.derivePrinted,
    menuOptions: { settings: { assistiveMml: !window.derivePrinted } }
  },
  chtml: { displayAlign: "center" },
  // Typesetting everything at once, the fonts are loaded first: Chromium fetches a font only when a layout first
  // meets it, and lays the whole page out again each time one arrives (on the claims page at 390 px, two more
  // layouts of 400,000 boxes after the first: 16.5 s to load, 12.5 s with the fonts first). From the site's own
  // vendor/ folder, all 22 arrive at once. As math scrolls into view, a font is still fetched when first needed.
  startup: window.deriveTypesetAll ? { pageReady: deriveFontsFirst } : {},
  safe: {
    allow: { URLs: "safe", classes: "safe", cssIDs: "safe", styles: "safe" },
    safeProtocols: { http: true, https: true, file: false, javascript: false, data: false }
  }
};
