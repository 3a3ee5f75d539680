// MathJax 3, loaded from the site's own vendor/ folder: the delimiters Jupyter uses, nothing fetched.
// Math is typeset as it scrolls into view (ui/lazy), except in the printed book (window.deriveTypesetAll) or
// with ?typeset=all in the address, where every expression is typeset at once.
window.deriveTypesetAll = window.deriveTypesetAll || /[?&]typeset=all(&|$)/.test(window.location.search);
// The printed book (window.derivePrinted) has no use for the menu a right click opens, nor for the hidden MathML a
// screen reader reads (its PDF prints the same text without them): its 2,400 expressions typeset in 3 s less.
window.derivePrinted = window.derivePrinted === true;
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
  safe: {
    allow: { URLs: "safe", classes: "safe", cssIDs: "safe", styles: "safe" },
    safeProtocols: { http: true, https: true, file: false, javascript: false, data: false }
  }
};
