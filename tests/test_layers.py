"""The package's layers: every import of derive runs downward, and no module imports one that imports it back."""
import ast
from pathlib import Path

import derive

ROOT = Path(derive.__file__).parent
#: a layer may import its own layer and those of lower rank (the kernel may also ask the engines)
RANK = {"kernel": 0, "second": 0, "layers": 1, "classifier": 2, "present": 3, "run": 4, "site": 5}


def _modules() -> dict:
    out = {}
    for path in ROOT.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(("derive",) + (parts[:-1] if parts[-1] == "__init__" else parts))
        out[name] = path
    return out


MODULES = _modules()


def _imports(name: str, path: Path) -> set:
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            base = (f"{base}.{node.module}" if node.module else base) if node.level else (node.module or "")
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]
        elif isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        else:
            continue
        for t in targets:
            while t not in MODULES and "." in t:
                t = t.rpartition(".")[0]
            if t in MODULES and t not in (name, "derive"):
                found.add(t)
    return found


EDGES = {name: _imports(name, path) for name, path in MODULES.items()}


def _layer(name: str):
    parts = name.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in RANK else None


def test_every_layer_is_a_package():
    assert all((ROOT / layer / "__init__.py").is_file() for layer in RANK)


def test_at_most_four_modules_at_the_top():
    top = [n for n, p in MODULES.items() if n.count(".") == 1 and p.name != "__init__.py"]
    assert len(top) <= 4, top


def test_imports_run_downward():
    wrong = []
    for a, targets in EDGES.items():
        for b in targets:
            la, lb = _layer(a), _layer(b)
            if la == "second" and lb != "second":
                wrong.append((a, b))
            elif la and lb and la != lb and RANK[lb] >= RANK[la] and not (la == "kernel" and lb == "second"):
                wrong.append((a, b))
    assert wrong == []


def test_no_import_circle():
    state: dict = {}

    def visit(node, path):
        state[node] = "open"
        for nxt in EDGES[node]:
            if state.get(nxt) == "open":
                raise AssertionError("import circle: " + " -> ".join(path + [nxt]))
            if nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = "done"

    for name in MODULES:
        if name not in state:
            visit(name, [name])


def test_the_kernel_never_imports_a_form():
    assert not any(_layer(b) == "layers" for a in MODULES if _layer(a) == "kernel" for b in EDGES[a])
