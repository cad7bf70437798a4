"""The package's layers point one way: every `steb_lib` import, at module level or inside a function (read from the
exported sources), goes to a module whose notebook has a lower number, so the import graph has no cycle either. A
module named in a string (`"steb_lib.train.lifecycle"`, `"steb_lib.models.stylometry.X"`: what `importlib` would
import) counts as an import too, so a lookup by name cannot hide an upward dependency; there is no exemption."""
import ast, json, re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent/"steb_lib"
NBS = ROOT.parent/"nbs"/"lib"


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def imports(path: Path, name: str, modules) -> set[str]:
    "The steb_lib modules `path` (module `name`) imports anywhere in its code."
    package = name.rsplit(".", 1)[0] if "." in name else ""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            if node.level:   # relative: from .x import / from ..x import
                base = package.split(".") if package else []
                base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
                out.add(".".join([*base, node.module]).strip("."))
            elif node.module.startswith("steb_lib."): out.add(node.module[len("steb_lib."):])
        elif isinstance(node, ast.Import):
            out |= {a.name[len("steb_lib."):] for a in node.names if a.name.startswith("steb_lib.")}
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            out |= named_modules(node.value, modules) - {name}   # its own logger's name is no import
    return {m for m in out if m in modules}


def named_modules(text: str, modules) -> set[str]:
    "The steb_lib modules a string names by their dotted path (`steb_lib.a.b` or `steb_lib.a.b.Attribute`)."
    out = set()
    for path in re.findall(r"\bsteb_lib((?:\.\w+)+)", text):
        parts = path.strip(".").split(".")
        out |= {".".join(parts[:n]) for n in range(len(parts), 0, -1) if ".".join(parts[:n]) in modules}
    return out


def import_graph() -> dict[str, set[str]]:
    files = {module_name(p): p for p in ROOT.rglob("*.py") if p.name not in ("__init__.py", "_modidx.py")}
    return {m: imports(p, m, files) for m, p in files.items()}


def notebook_numbers() -> dict[str, int]:
    "Module -> the number of the notebook it is exported from (`nbs/lib/eval/65_runner.ipynb` -> 'eval.runner': 65)."
    out = {}
    for nb in NBS.rglob("*.ipynb"):
        text = "\n".join("".join(c["source"]) for c in json.loads(nb.read_text(encoding="utf-8"))["cells"])
        exp = re.search(r"^#\| default_exp (\S+)", text, re.M)
        if exp: out[exp.group(1)] = int(nb.name.split("_", 1)[0])
    return out


def upward_imports(graph, numbers) -> list[str]:
    "Every import of a module from a notebook with the same or a higher number, as 'importer (n) -> imported (m)'."
    return [f"{m} ({numbers[m]}) -> {d} ({numbers[d]})" for m in sorted(graph) for d in sorted(graph[m]) if numbers[d] >= numbers[m]]


def cycles(graph) -> list[list[str]]:
    "Every distinct import cycle of `graph` (as a path that returns to its start)."
    found, seen = [], set()
    def walk(m, stack):
        for d in sorted(graph[m]):
            if d in stack:
                cyc = stack[stack.index(d):]
                if frozenset(cyc) not in seen: seen.add(frozenset(cyc)); found.append(cyc + [d])
            else: walk(d, stack + [d])
    for m in sorted(graph): walk(m, [m])
    return found


def test_a_module_named_in_a_string_counts_as_an_import(tmp_path):
    (tmp_path/"m.py").write_text('import importlib\nFAMILIES = {"x": "steb_lib.b.c.Family"}\n'
                                 'log = "steb_lib.a.m"\nhelp = "see steb_lib.core"\n')
    assert imports(tmp_path/"m.py", "a.m", {"a.m", "b.c", "core", "b"}) == {"b.c", "b", "core"}
    assert named_modules("plain text, steb-lib, steb_lib", {"core"}) == set()


def test_the_checker_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_steb_lib_has_no_import_cycle():
    graph = import_graph()
    assert len(graph) > 25 and "eval.runner" in graph["cli"] and "core" in graph["tasks.retrieval"]   # the graph is really read
    assert cycles(graph) == []


def test_the_checker_finds_an_upward_import():
    assert upward_imports({"a": {"b"}, "b": set()}, {"a": 10, "b": 20}) == ["a (10) -> b (20)"]
    assert upward_imports({"a": {"b"}, "b": set()}, {"a": 20, "b": 10}) == []


def test_every_module_has_a_numbered_notebook_and_imports_only_lower_numbers():
    graph, numbers = import_graph(), notebook_numbers()
    assert sorted(graph) == sorted(numbers), "every exported module comes from one numbered notebook"
    last, before = sorted(numbers.values())[-1], sorted(numbers.values())[-2]
    assert numbers["core"] == 0 and (numbers["cli"], numbers["console"]) == (before, last), \
        "core first, the CLI's commands then the console script (which pins the kernels before importing them) last"
    assert upward_imports(graph, numbers) == []


FOLDER_BANDS = {"": (range(0, 10), range(70, 100)), "tasks": (range(10, 20),), "data": (range(20, 30),),
                "models": (range(30, 39),), "testing": (range(39, 40),), "embed": (range(40, 45),),
                "llm": (range(45, 50),), "train": (range(50, 60),), "eval": (range(60, 70),), "job": (range(81, 90),),
                "cluster": (range(74, 79),)}


def out_of_band(notebooks) -> list[str]:
    "Notebooks (paths under nbs/lib) whose number is outside their folder's band (or in a folder with none)."
    out = []
    for nb in notebooks:
        folder, number = nb.parent.as_posix().strip("."), int(nb.name.split("_", 1)[0])
        if not any(number in band for band in FOLDER_BANDS.get(folder, ())): out.append(nb.as_posix())
    return out


def test_the_checker_finds_a_notebook_out_of_its_band():
    assert out_of_band([Path("eval/55_fetch.ipynb"), Path("55_fetch.ipynb"), Path("new/01_x.ipynb")]) == [
        "eval/55_fetch.ipynb", "55_fetch.ipynb", "new/01_x.ipynb"]
    assert out_of_band([Path("eval/60_results.ipynb"), Path("99_cli.ipynb"), Path("01_profiles.ipynb")]) == []


def test_notebook_numbers_fall_in_their_folders_band():
    notebooks = [p.relative_to(NBS) for p in NBS.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts]
    assert len(notebooks) > 40
    assert out_of_band(notebooks) == []


def long_lines(path: Path, limit: int = 110) -> list[str]:
    "Lines of an exported module over `limit` characters, leaving out the `__all__` list nbdev writes (at 120)."
    out, in_all = [], False
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        in_all = line.startswith("__all__ = [") or (in_all and line.startswith(" "))
        if len(line) > limit and not in_all: out.append(f"{path.relative_to(ROOT.parent)}:{n}: {len(line)} characters")
    return out


def test_library_lines_are_at_most_110_characters():
    modules = [p for p in ROOT.rglob("*.py") if p.name != "_modidx.py"]
    assert len(modules) > 25
    assert [line for p in modules for line in long_lines(p)] == []
