// The try page: boots Pyodide from vendor/pyodide, loads the wheels from vendor/wheels (SymPy, mpmath,
// python-flint, Z3 and derive), runs static/try_kernel.py, and answers the boxes and window.derive from it.
// Everything comes from this site's own folder: nothing is fetched from anywhere else.
(function () {
  "use strict";
  const root = document.getElementById("derive-try");
  const status = document.getElementById("try-status");
  const timings = {};
  const start = performance.now();
  const since = () => Math.round(performance.now() - start) / 1000;

  function say(text, failed) {
    status.textContent = text;
    status.classList.toggle("try-failed", !!failed);
  }

  function unavailable(why) {
    say(why, true);
    const refuse = () => Promise.reject(new Error(why));
    window.derive = { prove: refuse, refute: refuse, decide: refuse, classify: refuse, timings: timings,
                      ready: refuse() };
    window.derive.ready.catch(() => {});
  }

  if (window.location.protocol === "file:") {
    unavailable("The kernel needs the page served, not opened from disk: run python -m http.server in site/ " +
                "and open http://localhost:8000/try.html");
    return;
  }
  if (root.dataset.missing) {
    unavailable("This build holds no kernel for the page (" + root.dataset.missing + ")");
    return;
  }
  if (typeof loadPyodide !== "function") {
    unavailable("Pyodide did not load from vendor/pyodide/pyodide.js");
    return;
  }

  const base = new URL(".", window.location.href);
  const wheels = JSON.parse(root.dataset.wheels).map((name) => new URL("vendor/wheels/" + name, base).href);

  const ready = (async () => {
    say("Loading the kernel: starting Python…");
    const py = await loadPyodide({ indexURL: new URL("vendor/pyodide/", base).href });
    timings.boot = since();
    say("Loading the kernel: SymPy, mpmath, python-flint, Z3 and derive…");
    await py.loadPackage(wheels, { messageCallback: () => {}, errorCallback: (m) => console.warn(m) });
    timings.wheels = since();
    const source = await (await fetch(new URL("static/try_kernel.py", base))).text();
    py.FS.mkdirTree("/home/pyodide/derive_try");
    py.FS.writeFile("/home/pyodide/derive_try/try_kernel.py", source);
    py.runPython("import sys; sys.path.insert(0, '/home/pyodide/derive_try'); import try_kernel");
    timings.import = since();
    const kernel = py.pyimport("try_kernel");
    say("Ready (Python " + py.runPython("import sys; sys.version.split()[0]") + ", loaded in " + timings.import +
        " s). Budgets here are checked between strategies: a browser cannot interrupt a step already running.");
    document.querySelectorAll("#derive-try button").forEach((b) => { b.disabled = false; });
    return kernel;
  })();
  ready.catch((err) => say("The kernel failed to load: " + String(err && err.message || err).split("\n")[0], true));

  // one question at a time: Python runs on this page's thread
  let queue = Promise.resolve();
  function ask(call) {
    const run = queue.then(async () => {
      const kernel = await ready;
      await new Promise((r) => setTimeout(r, 0));  // let the page show "working" first
      const out = JSON.parse(call(kernel));
      if (!timings.first) timings.first = since();
      return out;
    });
    queue = run.catch(() => {});
    return run;
  }

  async function answer(call) {
    const out = await ask(call);
    if (!out.ok) throw new Error(out.error);
    return out;
  }

  window.derive = {
    prove: (lhs, rhs, assume) => answer((k) => k.answer("prove", lhs, rhs, assume || "")).then((o) => o.record),
    refute: (lhs, rhs, assume) => answer((k) => k.answer("refute", lhs, rhs, assume || "")).then((o) => o.record),
    decide: (lhs, rhs, assume) => answer((k) => k.answer("decide", lhs, rhs, assume || "")).then((o) => o.record),
    classify: (sigma) => answer((k) => k.classify_answer(sigma)).then((o) => o.record),
    timings: timings,
    ready: ready.then(() => true),
  };

  function show(form, errorBox, outBox, call) {
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const button = event.submitter;
      errorBox.hidden = true;
      outBox.setAttribute("aria-busy", "true");
      const buttons = form.querySelectorAll("button");
      buttons.forEach((b) => { b.disabled = true; });
      const was = button ? button.textContent : "";
      if (button) button.textContent = "working…";
      try {
        const out = await ask((k) => call(k, button));
        if (!out.ok) {
          errorBox.textContent = out.error;
          errorBox.title = out.error;
          errorBox.hidden = false;
        } else {
          const card = document.createElement("div");
          card.className = "try-answer";
          card.innerHTML = out.html;  // derive's own HTML (what a notebook shows); the input in it is escaped
          const time = document.createElement("p");
          time.className = "try-help";
          time.textContent = "answered in " + out.seconds.toFixed(3) + " s";
          card.appendChild(time);
          outBox.prepend(card);
          if (window.MathJax && MathJax.typesetPromise) await MathJax.typesetPromise([card]);
        }
      } catch (err) {
        errorBox.textContent = String(err && err.message || err).split("\n")[0];
        errorBox.hidden = false;
      } finally {
        if (button) button.textContent = was;
        buttons.forEach((b) => { b.disabled = false; });
        outBox.removeAttribute("aria-busy");
      }
    });
  }

  const value = (id) => document.getElementById(id).value;
  show(document.getElementById("try-claim"), document.getElementById("try-claim-error"),
       document.getElementById("try-claim-out"),
       (k, button) => k.answer(button ? button.dataset.verb : "decide", value("try-lhs"), value("try-rhs"),
                               value("try-assume")));
  show(document.getElementById("try-classify"), document.getElementById("try-classify-error"),
       document.getElementById("try-classify-out"), (k) => k.classify_answer(value("try-sigma")));
})();
