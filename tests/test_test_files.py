"""The test files themselves: a module-level name is bound once, so that a test reads the value written above it.

A lambda in a parametrize list (or a test's body) reads a module's global when it runs, after the whole module was
imported: a name bound again further down would silently give every earlier test the later value.
"""
import ast
from collections import Counter
from pathlib import Path

import pytest

FILES = sorted(Path(__file__).parent.glob("*.py"))


def _bound_at_top(tree: ast.Module) -> Counter:
    names: Counter = Counter()
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
            node, (ast.AnnAssign, ast.AugAssign)) else []
        for target in targets:
            for leaf in ast.walk(target):
                if isinstance(leaf, ast.Name):
                    names[leaf.id] += 1
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names[node.name] += 1
    return names


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_a_module_level_name_of_a_test_file_is_bound_once(path):
    twice = sorted(n for n, k in _bound_at_top(ast.parse(path.read_text(encoding="utf-8"))).items() if k > 1)
    assert not twice, f"{path.name} binds {', '.join(twice)} more than once at module level"
