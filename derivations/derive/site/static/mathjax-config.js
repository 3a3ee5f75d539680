// MathJax 3, loaded from the site's own vendor/ folder: the delimiters Jupyter uses, nothing fetched.
// Math is typeset as it scrolls into view (ui/lazy), except in the printed book (window.deriveTypesetAll) or
// with ?typeset=all in the address, where every expression is typeset at once.
window.deriveTypesetAll = window.deriveTypesetAll || /[?&]typeset=all(&|$)/.test(window.location.search);
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
    processHtmlClass: "tex2jax_process"
  },
  chtml: { displayAlign: "center" },
  safe: {
    allow: { URLs: "safe", classes: "safe", cssIDs: "safe", styles: "safe" },
    safeProtocols: { http: true, https: true, file: false, javascript: false, data: false }
  }
};
