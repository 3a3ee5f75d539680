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
    window.derive = { rerun: refuse, prove: refuse, refute: refuse, decide: refuse, classify: refuse, timings: timings,
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

  // re-runs: a notebook's code cells, one per call, so that the page says how far it is between cells
  const notebooksReady = fetch(new URL("static/try-notebooks.json", base)).then((r) => {
    if (!r.ok) throw new Error("static/try-notebooks.json: " + r.status);
    return r.json();
  });
  notebooksReady.catch(() => {});
  const notebookOf = (books, id) => Object.keys(books).find((name) => id in books[name].claims);
  let current = null;  // the notebook being re-run: {name, made: {id: verdict}, done, why: [one line, …]}

  async function runUntil(name, stop, progress) {
    const books = await notebooksReady;
    if (!current || current.name !== name) {
      const begun = await ask((k) => k.rerun_start(name, JSON.stringify(books[name].cells)));
      if (!begun.ok) throw new Error(begun.error);
      current = { name: name, made: {}, done: begun.cells === 0, why: [] };
    }
    while (!current.done && !stop(current.made)) {
      const out = await ask((k) => k.rerun_next());
      if (!out.ok) throw new Error(out.error);
      current.made = out.made;
      current.done = out.done;
      if (out.why) current.why.push(out.why);
      if (progress) progress(out);
    }
    return current;
  }

  // a claim is settled once made and given a verdict (a later cell may prove a claim an earlier one stated)
  const settled = (id, committed) => (made) => id in made && (made[id] !== "unproven" || committed === "unproven");

  async function rerun(id, progress) {
    const books = await notebooksReady;
    const name = notebookOf(books, id);
    if (!name) throw new Error(id + ": no notebook of this site makes this claim");
    const committed = books[name].claims[id];
    const t = performance.now();
    const run = await runUntil(name, settled(id, committed), progress);
    if (!(id in run.made)) {
      throw new Error(id + ": not re-run in the page: " + (run.why[0] || "its notebook did not make it"));
    }
    const found = await ask((k) => k.rerun_record(id));
    return { id: id, notebook: name, verdict: run.made[id], committed: committed, same: run.made[id] === committed,
             seconds: (performance.now() - t) / 1000, record: found.record, html: found.html };
  }

  window.derive = {
    rerun: (id) => rerun(String(id)).then((o) => { const { html, ...rest } = o; return rest; }),
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

  const rerunForm = document.getElementById("try-rerun");
  const rerunStatus = document.getElementById("try-rerun-status");
  const rerunError = document.getElementById("try-rerun-error");
  const rerunOut = document.getElementById("try-rerun-out");
  const select = document.getElementById("try-notebook");
  const cellsSaid = (name) => (out) => {
    rerunStatus.textContent = "Re-running " + name + ": cell " + out.cell + " of " + out.of + "…";
  };
  const escape = (text) => { const d = document.createElement("div"); d.textContent = text; return d.innerHTML; };

  function comparison(name, books, run) {
    const rows = Object.entries(books[name].claims).map(([id, committed]) => {
      const now = run.made[id];
      const same = now === committed;
      return `<tr class="${same ? "" : now ? "try-differs" : "try-not-run"}" data-id="${escape(id)}"><td><code>${escape(id)}</code></td>` +
        `<td>${escape(committed)}</td><td>${now ? escape(now) : "not re-run"}</td><td>${same ? "✓ the same" :
        now ? "<strong>differs</strong>" : "—"}</td></tr>`;
    });
    const same = Object.entries(books[name].claims).filter(([id, v]) => run.made[id] === v).length;
    const passed = run.why.length ? "<p class=\"try-help\">Passed over: " + run.why.map(escape).join("; ") + "</p>" : "";
    return `<p><strong>${escape(name)}</strong>: ${same} of ${Object.keys(books[name].claims).length} claims re-run ` +
      `here with the verdict the site shows.</p>${passed}<table class="try-rerun"><thead><tr><th>claim</th>` +
      `<th>on the site</th><th>here</th><th></th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
  }

  notebooksReady.then((books) => {
    for (const name of Object.keys(books)) {
      const option = document.createElement("option");
      option.value = name;
      option.textContent = name;
      select.appendChild(option);
    }
  });

  rerunForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = rerunForm.querySelector("button");
    button.disabled = true;
    rerunError.hidden = true;
    const name = select.value;
    const t = performance.now();
    try {
      const books = await notebooksReady;
      current = null;  // from its first cell again
      const run = await runUntil(name, () => false, cellsSaid(name));
      rerunStatus.textContent = "Re-ran " + name + " in " + ((performance.now() - t) / 1000).toFixed(1) + " s.";
      rerunOut.innerHTML = comparison(name, books, run);
    } catch (err) {
      rerunError.textContent = String(err && err.message || err).split("\n")[0];
      rerunError.hidden = false;
    } finally {
      button.disabled = false;
    }
  });

  const asked = new URLSearchParams(window.location.search).get("claim");
  if (asked) {
    ready.then(async () => {
      document.getElementById("rerun").scrollIntoView();
      try {
        const books = await notebooksReady;
        const name = notebookOf(books, asked);
        if (name) select.value = name;
        const out = await rerun(asked, cellsSaid(name || asked));
        rerunStatus.textContent = `Re-ran ${name} up to ${asked} in ${out.seconds.toFixed(1)} s: on the site ` +
          `${out.committed}, here ${out.verdict}` + (out.same ? " — the same verdict." : " — they differ.");
        const card = document.createElement("div");
        card.className = "try-answer";
        card.innerHTML = out.html;  // derive's own HTML, as the notebook shows it
        rerunOut.replaceChildren(card);
        if (window.MathJax && MathJax.typesetPromise) await MathJax.typesetPromise([card]);
      } catch (err) {
        rerunError.textContent = String(err && err.message || err).split("\n")[0];
        rerunError.hidden = false;
      }
    }).catch(() => {});
  }

  const value = (id) => document.getElementById(id).value;
  show(document.getElementById("try-claim"), document.getElementById("try-claim-error"),
       document.getElementById("try-claim-out"),
       (k, button) => k.answer(button ? button.dataset.verb : "decide", value("try-lhs"), value("try-rhs"),
                               value("try-assume")));
  show(document.getElementById("try-classify"), document.getElementById("try-classify-error"),
       document.getElementById("try-classify-out"), (k) => k.classify_answer(value("try-sigma")));
})();
