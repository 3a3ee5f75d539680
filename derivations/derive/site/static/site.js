// The claims page's filter: keep the claims whose text holds every word typed, and whose second opinion is the
// one chosen (data-second on each card; ?second=agrees in the address chooses it, as the index's counts link).
(function () {
  var box = document.getElementById("claims-filter");
  if (!box) return;
  var cards = Array.prototype.slice.call(document.querySelectorAll("article.claim-card"));
  var count = document.getElementById("claims-shown");
  var pick = document.getElementById("claims-second");
  var apply = function () {
    var words = box.value.toLowerCase().split(/\s+/).filter(Boolean);
    var second = pick ? pick.value : "";
    var shown = 0;
    cards.forEach(function (card) {
      var text = card.getAttribute("data-search");
      var keep = words.every(function (w) { return text.indexOf(w) >= 0; }) &&
        (!second || card.getAttribute("data-second") === second);
      card.hidden = !keep;
      if (keep) shown += 1;
    });
    document.querySelectorAll(".claim-cards").forEach(function (group) {
      var any = group.querySelector("article.claim-card:not([hidden])");
      group.hidden = !any;
      var head = group.previousElementSibling;
      if (head && head.tagName === "H3") head.hidden = !any;
    });
    count.textContent = words.length || second ? shown + " shown" : "";
    if (words.length || second) {  // what a filter keeps is shown: every step's claims open
      document.querySelectorAll("details.claims-step-body").forEach(function (d) { d.open = true; });
    }
  };
  box.addEventListener("input", apply);
  if (pick) {
    pick.addEventListener("change", apply);
    var asked = new URLSearchParams(window.location.search).get("second");
    if (asked && Array.prototype.some.call(pick.options, function (o) { return o.value === asked; })) {
      pick.value = asked;
      apply();
    }
  }
})();

// Printed, or with ?typeset=all in the address, every step's claims are open.
if (window.deriveTypesetAll) {
  document.querySelectorAll("details.claims-step-body").forEach(function (d) { d.open = true; });
}

// Each step's summary on the index shows two lines; a click shows it whole.
document.querySelectorAll(".derive-step-summary").forEach(function (summary) {
  summary.title = "click to read it all";
  summary.addEventListener("click", function () {
    summary.classList.add("open");
    summary.removeAttribute("title");
  });
});

// Search, offline: the index of static/search-index.js (derive/site/search_index.py), every word typed must appear
// in an entry's title, text, verdict or the prose and math it is also found by (e.w).
(function () {
  var index = window.DERIVE_SEARCH || [];
  // what a hit shows: its text, or, when a word is found only in its prose, the words around it
  var shown = function (e, words) {
    var text = (e.t + " " + e.x).toLowerCase();
    var missing = words.filter(function (w) { return text.indexOf(w) < 0; });
    var more = e.w || "";
    var at = missing.length ? more.toLowerCase().indexOf(missing[0]) : -1;
    if (at < 0) return e.x.slice(0, 140);
    var from = Math.max(0, at - 50);
    return (from ? "…" : "") + more.slice(from, from + 140) + (from + 140 < more.length ? "…" : "");
  };
  document.querySelectorAll(".derive-search").forEach(function (wrap) {
    var box = wrap.querySelector("input"), out = wrap.querySelector(".derive-search-results");
    var run = function () {
      var words = box.value.toLowerCase().split(/\s+/).filter(Boolean);
      out.textContent = "";
      if (!words.length) { out.hidden = true; return; }
      var found = index.filter(function (e) {
        var text = (e.t + " " + e.x + " " + (e.v || "") + " " + (e.w || "")).toLowerCase();
        return words.every(function (w) { return text.indexOf(w) >= 0; });
      });
      found.slice(0, 30).forEach(function (e) {
        var a = document.createElement("a");
        a.href = e.u;
        a.className = "derive-hit derive-hit-" + e.k;
        var t = document.createElement("span");
        t.className = "derive-hit-title";
        t.textContent = e.t + (e.v ? " · " + e.v : "");
        var x = document.createElement("span");
        x.className = "derive-hit-text";
        x.textContent = shown(e, words);
        a.appendChild(t); a.appendChild(x);
        out.appendChild(a);
      });
      if (!found.length) out.textContent = "nothing found";
      else if (found.length > 30) {
        var more = document.createElement("span");
        more.className = "derive-hit-more";
        more.textContent = (found.length - 30) + " more: type another word";
        out.appendChild(more);
      }
      out.hidden = false;
    };
    box.addEventListener("input", run);
    box.addEventListener("keydown", function (ev) {
      if (ev.key === "Escape") { box.value = ""; run(); }
      if (ev.key === "Enter") { var first = out.querySelector("a"); if (first) window.location.href = first.href; }
    });
    document.addEventListener("click", function (ev) { if (!wrap.contains(ev.target)) out.hidden = true; });
  });
})();

// What is wider than its box scrolls, and says so: display equations, claim statements, graphs. Every width is
// read before any mark is written: a write between two reads would lay the whole page out again for each box.
// What a closed fold hides is not read (folded.js: on the claims page, 141 such reads took 2.5 s): it is marked when
// its fold opens.
function deriveMarkScrolls() {
  var boxes = Array.prototype.filter.call(
    document.querySelectorAll('mjx-container[display="true"], .cc-piece, .derive-scroll, .jp-OutputArea-output'),
    function (el) { return !deriveFolded(el); });
  var wide = boxes.map(function (el) { return el.scrollWidth > el.clientWidth + 1; });
  var tall = boxes.map(function (el) { return el.clientHeight > 240; });
  // inline math wider than the line it sits in becomes a box of its own that scrolls, and inline again when the line
  // grows wide enough (its width read off the math inside, which a box that scrolls does not narrow)
  var inline = Array.prototype.filter.call(document.querySelectorAll('mjx-container:not([display="true"])'),
    function (el) { return !deriveFolded(el); });
  var inlineWide = inline.map(function (el) {
    var room = el.parentElement ? el.parentElement.clientWidth : 0;
    if (room && el.parentElement.matches("details.derive-full > summary"))  // beside the fold's marker (site.css)
      room -= 1.5 * parseFloat(getComputedStyle(el).fontSize);
    return room > 0 && (el.firstElementChild || el).getBoundingClientRect().width > room + 1;
  });
  boxes.forEach(function (el, k) {
    if (el.classList.contains("derive-scrolls") !== wide[k]) el.classList.toggle("derive-scrolls", wide[k]);
    if (wide[k] && !el.hasAttribute("title")) el.setAttribute("title", "wider than the page: scroll sideways");
    // and says so in words, where a touch screen shows no title: under it, or above it when it is tall (a graph)
    var hint = el.deriveHint && el.deriveHint.isConnected;
    if (wide[k] && !hint) {
      var say = document.createElement("span");
      say.className = "derive-scroll-hint";
      say.setAttribute("aria-hidden", "true");
      say.textContent = "scroll sideways for the rest \u2192";
      el.insertAdjacentElement(tall[k] ? "beforebegin" : "afterend", say);
      el.deriveHint = say;
    } else if (!wide[k] && hint) el.deriveHint.remove();
  });
  inline.forEach(function (el, k) {
    if (inlineWide[k]) el.classList.add("derive-scrolls", "derive-scrolls-inline");
    else if (el.classList.contains("derive-scrolls-inline")) el.classList.remove("derive-scrolls", "derive-scrolls-inline");
  });
}
// Punctuation right after inline math stays on its line ("for $a$." never leaves the "." alone on the next one).
function deriveKeepPunctuation() {
  document.querySelectorAll('mjx-container:not([display="true"])').forEach(function (el) {
    var next = el.nextSibling;
    if (!next || next.nodeType !== 3 || (el.parentElement && el.parentElement.classList.contains("derive-nobreak"))) return;
    var m = /^[.,;:!?)\]]+/.exec(next.data);
    if (!m) return;
    var span = document.createElement("span");
    span.className = "derive-nobreak";
    el.parentNode.insertBefore(span, el);
    span.appendChild(el);
    span.appendChild(document.createTextNode(m[0]));
    next.data = next.data.slice(m[0].length);
  });
}
function deriveAfterTypeset() { deriveKeepPunctuation(); deriveMarkScrolls(); }
(function wait() {  // once now, again when MathJax has typeset the page, and after math typeset on scrolling
  deriveMarkScrolls();
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) MathJax.startup.promise.then(deriveAfterTypeset);
  else setTimeout(wait, 50);
})();
(function () {
  var pending = null;
  var again = null;
  function later() {  // math that scrolled into view is typeset a moment later
    clearTimeout(pending); clearTimeout(again);
    pending = setTimeout(deriveAfterTypeset, 150); again = setTimeout(deriveAfterTypeset, 700);
  }
  window.addEventListener("scroll", later, { passive: true });
  window.addEventListener("resize", later);
})();
window.addEventListener("resize", deriveMarkScrolls);
document.addEventListener("toggle", function (ev) { if (ev.target.open) deriveMarkScrolls(); }, true);

// On a narrow screen the contents are folded, above the text; they unfold when the window grows wide (a tablet
// turned) and fold again when it narrows, so a page reads the same however its width was reached.
(function () {
  var narrow = null;
  function fit() {
    var now = window.innerWidth < 1100;
    if (now === narrow) return;
    narrow = now;
    document.querySelectorAll("nav.derive-toc details").forEach(function (d) { d.open = !now; });
  }
  fit();
  window.addEventListener("resize", fit);
})();

// A link to what sits inside a fold (the rows of a long claim table) opens the fold it lands in.
function deriveOpenTarget() {
  var id = decodeURIComponent(location.hash.slice(1));
  var target = id && document.getElementById(id);
  var opened = false;
  for (var e = target; e; e = e.parentElement) {
    if (e.tagName === "DETAILS" && !e.open) { e.open = true; opened = true; }
  }
  var fold = target && target.querySelector("details.derive-table-fold");
  if (fold) fold.open = true;
  if (opened) target.scrollIntoView();  // it was folded when the browser looked for it
}
window.addEventListener("hashchange", deriveOpenTarget);
deriveOpenTarget();
