// Byte-compile the try page's pure wheels with Pyodide's own Python (3.14, in node), so that the browser imports
// SymPy without compiling its thousand modules first. Each wheel gains __pycache__/*.cpython-314.pyc beside its
// sources (unchecked-hash pycs: read as they are), and its RECORD lists them.
//   node precompile_wheels.mjs <folder of the npm package pyodide> <folder of wheels> <wheel file name>...
const { loadPyodide } = await import(process.argv[2] + "/pyodide.mjs");

const [, , , folder, ...names] = process.argv;
const py = await loadPyodide({ indexURL: process.argv[2] + "/" });
py.FS.mkdirTree("/wheels");
py.FS.mount(py.FS.filesystems.NODEFS, { root: folder }, "/wheels");
py.globals.set("names", py.toPy(names));
py.runPython(`
import base64, compileall, hashlib, io, os, re, shutil, sys, zipfile

def digest(data):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()

for name in names:
    path = "/wheels/" + name
    work = "/tmp/unpacked"
    shutil.rmtree(work, ignore_errors=True)
    with zipfile.ZipFile(path) as whl:
        whl.extractall(work)
        order = whl.namelist()
    if any("__pycache__/" in n for n in order):
        print(f"{name}: already compiled")
        continue
    compileall.compile_dir(work, quiet=1, rx=re.compile(r'[/\\\\]tests[/\\\\]'), invalidation_mode=compileall.py_compile.PycInvalidationMode.UNCHECKED_HASH)
    files = []
    for root, dirs, found in os.walk(work):
        dirs.sort()
        for f in sorted(found):
            files.append(os.path.relpath(os.path.join(root, f), work))
    record = next(f for f in files if f.endswith(".dist-info/RECORD"))
    lines = []
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as whl:
        for f in files:
            if f == record:
                continue
            data = open(os.path.join(work, f), "rb").read()
            info = zipfile.ZipInfo(f, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            whl.writestr(info, data)
            lines.append(f"{f},{digest(data)},{len(data)}")
        lines.append(f"{record},,")
        whl.writestr(zipfile.ZipInfo(record, date_time=(1980, 1, 1, 0, 0, 0)), "\\n".join(lines) + "\\n")
    open(path, "wb").write(out.getvalue())
    print(f"{name}: {sum(f.endswith('.pyc') for f in files)} modules compiled by Python {sys.version.split()[0]}")
`);
