"""Check the layout rules of issue 28 and print every breach (exit 1 if any).

- no module in core/, ui/, pages/ (and app.py) over MAX_LINES lines;
- at most MAX_FMT_SKIP ``# fmt: skip`` markers in the project's Python files;
- no import of another module's private name (``from core.x import _y`` or ``core.x._y``);
- no import cycle among the project's modules, imports inside functions included.

Run it with ``python scripts/check_architecture.py``; tests/test_architecture.py runs the same checks.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("core", "ui", "pages")
MAX_LINES = 800
MAX_FMT_SKIP = 10


def project_files() -> list[Path]:
    files = [ROOT / "app.py"]
    for package in PACKAGES:
        files += sorted((ROOT / package).rglob("*.py"))
    return [f for f in files if f.exists()]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def oversized_modules() -> list[str]:
    breaches = []
    for path in project_files():
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_LINES:
            breaches.append(f"{path.relative_to(ROOT)}: {lines} lines (at most {MAX_LINES})")
    return breaches


def fmt_skip_count() -> int:
    count = 0
    for path in ROOT.rglob("*.py"):
        if ".venv" in path.parts or ".git" in path.parts:
            continue
        count += path.read_text(encoding="utf-8", errors="replace").count("# fmt" + ": skip")
    return count


def _resolve(module: str, level: int, name: str | None, package: str) -> str:
    """The absolute module an import statement names (relative imports resolved)."""
    if level == 0:
        return module or ""
    base = package.split(".")
    base = base[: len(base) - (level - 1)] if level > 1 else base
    return ".".join(base + ([module] if module else []))


def imports_of(path: Path, known: set[str]) -> tuple[set[str], list[str]]:
    """Project modules imported anywhere in ``path`` and the private names it imports."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    targets: set[str] = set()
    private: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in PACKAGES:
                    targets.add(_longest_known(alias.name, known))
                    if any(
                        part.startswith("_") and not part.startswith("__")
                        for part in alias.name.split(".")
                    ):
                        private.append(alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(node.module or "", node.level, None, package)
            if base.split(".")[0] not in PACKAGES:
                continue
            for alias in node.names:
                full = f"{base}.{alias.name}"
                if full in known:
                    targets.add(full)
                    continue
                targets.add(_longest_known(base, known))
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    private.append(f"{base}.{alias.name}")
    targets.discard(name)
    targets.discard("")
    return targets, private


def _longest_known(dotted: str, known: set[str]) -> str:
    parts = dotted.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in known:
            return candidate
        parts.pop()
    return ""


def _ancestors(dotted: str) -> list[str]:
    parts = dotted.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def private_imports() -> list[str]:
    known = {module_name(p) for p in project_files()}
    breaches = []
    for path in project_files():
        for name in imports_of(path, known)[1]:
            breaches.append(f"{path.relative_to(ROOT)} imports the private name {name}")
    return breaches


def import_cycles() -> list[str]:
    """Strongly connected components of the import graph (Tarjan), each a cycle.

    A package's ``__init__`` that re-exports its submodules is not a cycle with them, so edges
    from a submodule to its own parent package are left out.
    """
    known = {module_name(p) for p in project_files()}
    graph = {}
    for path in project_files():
        name = module_name(path)
        targets = imports_of(path, known)[0]
        # Importing core.x.y runs core/x/__init__.py first: that package is imported too,
        # unless it is one of the importer's own packages (already being imported).
        implied = {
            ancestor
            for target in targets
            for ancestor in _ancestors(target)
            if ancestor in known and not name.startswith(ancestor + ".")
        }
        graph[name] = {
            t for t in targets | implied if not (name.startswith(t + ".") and t in known)
        }
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[str] = []
    counter = [0]

    def visit(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                cycles.append("import cycle: " + " <-> ".join(sorted(component)))

    sys.setrecursionlimit(10000)
    for node in sorted(graph):
        if node not in index:
            visit(node)
    return cycles


def breaches() -> list[str]:
    found = oversized_modules() + private_imports() + import_cycles()
    skips = fmt_skip_count()
    if skips > MAX_FMT_SKIP:
        found.append(f"{skips} '# fmt: skip' markers (at most {MAX_FMT_SKIP})")
    return found


if __name__ == "__main__":
    found = breaches()
    print("\n".join(found) if found else "layout rules hold")
    sys.exit(1 if found else 0)
