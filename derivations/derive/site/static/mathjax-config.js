// MathJax 3, loaded from the site's own vendor/ folder: the delimiters Jupyter uses, nothing fetched.
// Math is typeset as it scrolls into view (ui/lazy), except in the printed book (window.deriveTypesetAll) or
// with ?typeset=all in the address, where every expression is typeset at once.
window.deriveTypesetAll = window.deriveTypesetAll || /[?&]typeset=all(&|$)/.test(window.location.search);
window.MathJax = {
  loader: { load: window.deriveTypesetAll ? [] : ["ui/lazy"] },
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
  chtml: { displayAlign: "center" }
};
