"""``taskeval export NAME DIR``: one metric as a complete Hugging Face Space repository.

In the ``evaluate`` convention the metric's Hub Space *is* the metric: ``evaluate.load("<user>/
<name>")`` fetches ``<name>.py`` (and the modules it imports) from the Space, and the Space runs
``app.py``. The export writes, as plain files (symbolic links resolved):

* ``<name>.py`` and every module of the metric folder, as ``taskeval`` ships them (its
  ``contract.py`` importing the contract's classes from ``spacekit/`` instead of taskeval);
* ``README.md``: the metric card, whose front matter is the Space's (``sdk: gradio``,
  ``app_file: app.py``, tags ``evaluate`` and ``metric``);
* ``app.py``: the metric's Space (``spaces/<name>/app.py``), importing the shared Space code from
  ``spacekit/``, a copy of the taskeval modules it needs, where ``spacekit/registry.py`` points
  at the repository's own top folder instead of taskeval's metrics;
* ``examples/``: the example files with their licence notes;
* ``requirements.txt``: published packages only, pinned (the tested set), never taskeval.

Nothing here is specific to one metric: the Space code exists once, in ``taskeval/space.py``
(and the modules it imports) and ``spaces/<name>/app.py``.
"""

from __future__ import annotations

import ast
import re
import shutil
from importlib import resources
from os import PathLike
from pathlib import Path

from .registry import metric_dir

PACKAGE = "spacekit"  # the shared Space code inside an exported repository
_HERE = Path(__file__).resolve().parent

_REGISTRY = '''"""Where this Space's metric is: the repository's own top folder (written by taskeval export).

The metric's modules are imported as the package ``{package}._metric`` made of that folder, so
their relative imports work as they do in taskeval and under ``evaluate.load``.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

NAME = {name!r}
ROOT = Path(__file__).resolve().parent.parent
_PACKAGE = __package__ + "._metric"


def list_metrics() -> list[str]:
    return [NAME]


def metric_dir(name: str) -> Path:
    if name != NAME:
        raise ValueError(f"unknown metric {{name!r}}; this Space has {{NAME}}")
    return ROOT


def metric_file(name: str, file: str) -> str:
    return str(metric_dir(name) / file)


def metric_module(name: str, module: str) -> ModuleType:
    metric_dir(name)
    if _PACKAGE not in sys.modules:
        spec = ModuleSpec(_PACKAGE, None, is_package=True)
        spec.submodule_search_locations = [str(ROOT)]
        sys.modules[_PACKAGE] = importlib.util.module_from_spec(spec)
    return importlib.import_module(f"{{_PACKAGE}}.{{module}}")


def contract(name: str):
    return metric_module(name, "contract").CONTRACT
'''


def spaces_root() -> Path:
    """The Spaces' folder (``spaces/`` of the repository, shipped as ``taskeval._spaces``)."""
    return Path(str(resources.files("taskeval._spaces")))


def _relative_imports(path: Path) -> set[str]:
    """The sibling modules a file imports (``from .x import ...``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        node.module.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module
    }


def _taskeval_imports(source: str) -> set[str]:
    """The taskeval modules a file imports (``from taskeval.space import ...``)."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            top, _, rest = node.module.partition(".")
            if top == "taskeval":
                if not rest:
                    raise ValueError("a Space's file imports from taskeval's modules by name")
                found.add(rest.split(".")[0])
        elif isinstance(node, ast.Import) and any(
            a.name.split(".")[0] == "taskeval" for a in node.names
        ):
            raise ValueError("a Space's file imports from taskeval's modules by name")
    return found


def _modules(start: set[str]) -> list[str]:
    """``start`` and every taskeval module they import, transitively."""
    seen: set[str] = set()
    todo = list(start)
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        todo += _relative_imports(_HERE / f"{module}.py")
    return sorted(seen)


def _bundled(source: str) -> str:
    """``source`` importing taskeval's modules from the bundled package."""
    return re.sub(r"\bfrom taskeval\.", f"from {PACKAGE}.", source)


def _remove(path: Path) -> None:
    """Remove ``path``: a link itself (never what it points to), a folder with its contents."""
    if path.is_symlink() or path.is_file():
        path.unlink()
    elif path.is_dir():
        shutil.rmtree(path)  # does not follow the links inside the folder


def _fresh(target: Path, path: Path) -> Path:
    """``path`` (inside ``target``) ready to be written as a new file: a link on the way, to a
    folder or a file, is replaced by a real folder; an existing file is removed first, so that
    writing never reaches outside ``target`` (through a symbolic link or a hard link)."""
    current = target
    for part in path.relative_to(target).parts[:-1]:
        current = current / part
        if current.is_symlink() or (current.exists() and not current.is_dir()):
            current.unlink()
        current.mkdir(exist_ok=True)
    if path.is_symlink() or path.exists():
        _remove(path)
    return path


def how_to_load(name: str, target: str | PathLike) -> str:
    """How to use the folder ``export`` wrote: evaluate loads a folder named after the metric,
    else the metric's script in it."""
    target = Path(target)
    where = target if target.resolve().name == name else target / f"{name}.py"
    return (
        f"load it with evaluate.load({str(where)!r}) (or, pushed to a Hub Space, "
        f'evaluate.load("<user>/{name}")); run its Space with python {target / "app.py"}'
    )


def export(name: str, target: str | PathLike, *, overwrite: bool = False) -> list[Path]:
    """Write the Hub Space repository of metric ``name`` into the folder ``target``.

    ``target`` must be missing or empty unless ``overwrite``. Returns the files written.
    """
    folder = metric_dir(name)
    space = spaces_root() / name
    if not (space / "app.py").is_file():
        raise ValueError(f"{name} has no Space")
    target = Path(target)
    if target.exists() and any(target.iterdir()) and not overwrite:
        raise ValueError(
            f"{target} is not empty (--overwrite, or overwrite=True, replaces what it holds)"
        )
    target.mkdir(parents=True, exist_ok=True)

    written = []

    def write(path: Path, text: str) -> None:
        _fresh(target, path).write_text(text, encoding="utf-8")
        written.append(path)

    def copy(source: Path, path: Path) -> None:
        shutil.copyfile(source, _fresh(target, path))  # follows links: the Hub gets plain files
        written.append(path)

    # The metric, as evaluate.load takes it, and its card as the Space's README. Its contract
    # (and the app) import the shared code from the bundled package instead of taskeval.
    needed = {"space"}
    for source in sorted(folder.glob("*.py")):
        text = source.read_text(encoding="utf-8")
        used = _taskeval_imports(text)
        if used:
            needed |= used
            write(target / source.name, _bundled(text))
        else:
            copy(source, target / source.name)
    copy(folder / "README.md", target / "README.md")
    app = (space / "app.py").read_text(encoding="utf-8")
    needed = set(_modules(needed | _taskeval_imports(app)))
    write(target / "app.py", _bundled(app))
    package = target / PACKAGE
    _remove(package)
    write(
        package / "__init__.py",
        f'"""The Space code of taskeval, bundled for the {name} Space."""\n',
    )
    for module in sorted(needed):
        if module == "registry":
            write(package / "registry.py", _REGISTRY.format(name=name, package=PACKAGE))
        else:
            copy(_HERE / f"{module}.py", package / f"{module}.py")

    examples = space / "examples"
    if examples.is_dir():
        _remove(target / "examples")
        for source in sorted(examples.rglob("*")):
            if source.is_file():
                copy(source, target / "examples" / source.relative_to(examples))
    copy(spaces_root() / "requirements.txt", target / "requirements.txt")
    return written
