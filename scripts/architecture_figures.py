"""The figures of issue 63 (architecture): how far a model travels through the library, where profiles are made and
who loads encoders, how big the crowded modules are, and how the library notebooks' test cells read. Static analysis
of the exported sources (`steb_lib/`) and the notebooks (`nbs/lib/`); nothing is imported or run.

    .venv/bin/python scripts/architecture_figures.py          # the figures, one per line
    .venv/bin/python scripts/architecture_figures.py --json   # the same as JSON (and the hand-overs one by one)

**A hand-over** is a call, in a function the model reaches, that passes the model on to another steb_lib function or
class: an argument that is the traced parameter or a local name bound from an expression mentioning it (by `=`, `:=`,
`for`, `with ... as`) whose name says it holds a model (`model`, `spec`, `encoder`, `source`, ...). Each (caller,
callee, parameter) counts once; the callee's parameter is then traced in turn. Calls are resolved by the module's own
names and imports, module aliases (`registry.resolve_model`), `self.method` in the same class and a class's
`__init__`; a call on an object of unknown type (`encoder.encode(...)`, a family's class from `ENCODERS`) is not
followed. A hand-over goes **across** when the callee is in another module (the
others are calls between one module's own helpers). A hand-over goes **back up** when the model, handed down to a lower
module by the same function just before, is now handed to a higher one (modules are ranked by their notebook's number,
and import only lower-numbered ones: tests/test_layering.py): the model goes down and comes back up.

**A test cell** is a library notebook's code cell that exports nothing; it **follows another with no prose** when the
cell before it is a test cell too. A test cell **splits a computation from its assertion** when it checks nothing
(no `assert`, no fastcore `test_*` call) and shows nothing (its last line is no expression), and the next cell is a
test cell that checks. **A long test line** is one over 110 characters, the notebook style's limit (docs/layout.md).
"""
import ast, json, re, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIB, NBS = ROOT / "steb_lib", ROOT / "nbs" / "lib"
MODEL_WORDS = re.compile(r"model|encoder|spec|source|local|entry")
CHECKS = re.compile(r"^\s*(assert\b|test_\w+\(|test_fail\b)", re.M)


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(LIB).with_suffix("").parts)


def library_modules() -> dict[str, ast.Module]:
    return {module_name(p): ast.parse(p.read_text(encoding="utf-8")) for p in sorted(LIB.rglob("*.py"))
            if p.name not in ("__init__.py", "_modidx.py")}


def notebook_numbers() -> dict[str, int]:
    "Module -> the number of the notebook it is exported from."
    out = {}
    for nb in NBS.rglob("*.ipynb"):
        text = "\n".join("".join(c["source"]) for c in json.loads(nb.read_text(encoding="utf-8"))["cells"])
        if exp := re.search(r"^#\| default_exp (\S+)", text, re.M): out[exp[1]] = int(nb.name.split("_", 1)[0])
    return out


def definitions(tree: ast.Module) -> dict[str, ast.AST]:
    "A module's functions and classes by name; methods as `Class.method`."
    out = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)): out[node.name] = node
        if isinstance(node, ast.ClassDef):
            out |= {f"{node.name}.{f.name}": f for f in node.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))}
    return out


def imported_names(tree: ast.Module, module: str, modules) -> dict[str, tuple[str, str | None]]:
    "Local name -> (steb_lib module, name in it or None for the module itself), from imports anywhere in the module."
    package, out = module.rsplit(".", 1)[0] if "." in module else "", {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            if node.level:
                base = package.split(".") if package else []
                base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
                source = ".".join([*base, node.module]).strip(".")
            elif node.module.startswith("steb_lib."): source = node.module[len("steb_lib."):]
            elif node.module == "steb_lib": source = ""
            else: continue
            for a in node.names:
                full = f"{source}.{a.name}".strip(".")
                out[a.asname or a.name] = (full, None) if full in modules else (source, a.name)
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("steb_lib.") and a.asname: out[a.asname] = (a.name[len("steb_lib."):], None)
    return out


class Library:
    def __init__(self):
        self.trees = library_modules()
        self.defs = {m: definitions(t) for m, t in self.trees.items()}
        self.names = {m: imported_names(t, m, self.trees) for m, t in self.trees.items()}
        self.numbers = notebook_numbers()

    def resolve(self, module: str, cls: str | None, func: ast.AST) -> tuple[str, str] | None:
        "The (module, definition) a call's function names, or None."
        if isinstance(func, ast.Name):
            if func.id in self.defs[module]: return module, func.id
            if func.id in self.names[module]:
                source, name = self.names[module][func.id]
                if name and name in self.defs.get(source, {}): return source, name
        elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            if func.value.id == "self" and cls and f"{cls}.{func.attr}" in self.defs[module]:
                return module, f"{cls}.{func.attr}"
            source, name = self.names[module].get(func.value.id, (None, "x"))
            if source is not None and name is None and func.attr in self.defs.get(source, {}): return source, func.attr
        return None

    def parameters(self, module: str, name: str) -> list[str]:
        node = self.defs[module][name]
        if isinstance(node, ast.ClassDef):
            init = self.defs[module].get(f"{name}.__init__")
            if init is None: return [f.target.id for f in node.body if isinstance(f, ast.AnnAssign)]   # a dataclass
            node = init
        names = [a.arg for a in node.args.posonlyargs + node.args.args]
        return names[1:] if names[:1] in (["self"], ["cls"]) else names

    def handovers(self, module: str, name: str, parameter: str) -> list[dict]:
        "Every hand-over of `parameter` of `module.name`, followed through the callees."
        seen, todo, out = set(), [(module, name, parameter)], []
        while todo:
            module, name, parameter = todo.pop()
            if (module, name, parameter) in seen: continue
            seen.add((module, name, parameter))
            node = self.defs[module][name]
            if isinstance(node, ast.ClassDef): node = self.defs[module].get(f"{name}.__init__")
            if node is None: continue
            cls = name.split(".")[0] if "." in name else None
            carrying = {parameter}
            for value, targets in bindings(node):   # names bound from the model that say they hold one
                if mentions(value, carrying):
                    carrying |= {n.id for t in targets for n in ast.walk(t)
                                 if isinstance(n, ast.Name) and MODEL_WORDS.search(n.id)}
            last = None   # the notebook number of the module the model was last handed to in this function
            calls = sorted((n for n in ast.walk(node) if isinstance(n, ast.Call)), key=lambda n: (n.lineno, n.col_offset))
            for call in calls:
                callee = self.resolve(module, cls, call.func)
                if callee is None: continue
                params = self.parameters(*callee)
                passed = [params[i] for i, a in enumerate(call.args) if i < len(params) and is_carrying(a, carrying)]
                passed += [k.arg for k in call.keywords if k.arg and is_carrying(k.value, carrying)]
                number = self.numbers.get(callee[0], 0)
                for p in passed:
                    edge = {"from": f"{module}.{name}", "to": f"{callee[0]}.{callee[1]}", "parameter": p,
                            "up": last is not None and number > last, "across": callee[0] != module}
                    if all(e | {"up": False} != edge | {"up": False} for e in out): out.append(edge)
                    todo.append((*callee, p))
                if passed: last = number
        return out


def bindings(node: ast.AST):
    "(value, targets) of every binding in `node`: `=`, annotated `=`, `:=`, `for ... in`, `with ... as`."
    for n in ast.walk(node):
        if isinstance(n, ast.Assign): yield n.value, n.targets
        elif isinstance(n, ast.AnnAssign) and n.value is not None: yield n.value, [n.target]
        elif isinstance(n, ast.NamedExpr): yield n.value, [n.target]
        elif isinstance(n, (ast.For, ast.comprehension)): yield n.iter, [n.target]
        elif isinstance(n, ast.withitem) and n.optional_vars is not None: yield n.context_expr, [n.optional_vars]


def mentions(expr: ast.AST, names: set) -> bool:
    return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(expr))


def is_carrying(arg: ast.AST, names: set) -> bool:
    return isinstance(arg, ast.Name) and arg.id in names


def calls_of(lib: Library, function: str) -> list[str]:
    "Where `function` is called in the library, as 'module.definition'."
    out = []
    for module, defs in lib.defs.items():
        for name, node in defs.items():
            if isinstance(node, ast.ClassDef): continue
            for call in (n for n in ast.walk(node) if isinstance(n, ast.Call)):
                f = call.func
                if (f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None) == function:
                    out.append(f"{module}.{name}")
    return out


def profile_none(lib: Library) -> list[str]:
    "Library functions with a parameter `profile` that defaults to None."
    out = []
    for module, defs in lib.defs.items():
        for name, node in defs.items():
            if isinstance(node, ast.ClassDef): continue
            args = node.args.posonlyargs + node.args.args
            defaults = dict(zip([a.arg for a in args][::-1], node.args.defaults[::-1]))
            defaults |= {a.arg: d for a, d in zip(node.args.kwonlyargs, node.args.kw_defaults) if d is not None}
            if isinstance(defaults.get("profile"), ast.Constant) and defaults["profile"].value is None:
                out.append(f"{module}.{name}")
    return out


def is_test_cell(cell) -> bool:
    src = "".join(cell["source"])
    return cell["cell_type"] == "code" and not re.search(r"^#\|\s*(export|exporti|default_exp)\b", src, re.M) \
        and bool(src.strip())


def shows_or_checks(src: str) -> bool:
    if CHECKS.search(src): return True
    try: body = ast.parse(src).body
    except SyntaxError: return True
    return bool(body) and isinstance(body[-1], ast.Expr)


def notebook_cells() -> dict:
    "Test cells, those following another test cell, and those that split a computation from its assertion."
    tests = following = splitting = long_lines = 0
    for nb in sorted(NBS.rglob("*.ipynb")):
        cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
        for before, cell, after in zip([None] + cells[:-1], cells, cells[1:] + [None]):
            if not is_test_cell(cell): continue
            tests += 1
            following += before is not None and is_test_cell(before)
            src = "".join(cell["source"])
            long_lines += sum(len(line) > 110 for line in src.splitlines())
            splitting += (not shows_or_checks(src) and after is not None and is_test_cell(after)
                          and bool(CHECKS.search("".join(after["source"]))))
    return {"test_cells": tests, "following_another": following, "share_following": round(following / tests, 3),
            "splitting_computation_from_assertion": splitting, "test_lines_over_110": long_lines}


FAMILY_OR_SIZE_WORDS = re.compile(r'"(random|function-words|stylometric|biber|tfidf|luar|sentence-transformers|masked-lm|'
                                  r'causal-lm|minilm|mini|small|base|large|xl)"', re.I)


def module_shape() -> dict:
    """Issue 77's figures of shape: modules over 400 non-blank lines, export cells over 30 non-blank lines (after
    the `#| export` line; and their share),
    modules without a docstring, and family or size words in the `cluster/` package's code (quoted names only)."""
    files = {module_name(p): p for p in LIB.rglob("*.py") if p.name not in ("__init__.py", "_modidx.py")}
    nonblank = {m: sum(1 for line in p.read_text().splitlines() if line.strip()) for m, p in files.items()}
    undocumented = sorted(m for m, p in files.items() if not p.read_text().lstrip().startswith('"""'))
    exports = [sum(1 for line in "".join(c["source"]).splitlines()[1:] if line.strip()) for nb in NBS.rglob("*.ipynb")
               for c in json.loads(nb.read_text(encoding="utf-8"))["cells"]
               if c["cell_type"] == "code" and "".join(c["source"]).startswith("#| export")]
    long = sum(n > 30 for n in exports)
    return {"modules_over_400": {m: n for m, n in sorted(nonblank.items()) if n > 400},
            "export_cells": len(exports), "export_cells_over_30": long, "share_over_30": round(long / len(exports), 3),
            "modules_without_docstring": undocumented,
            "family_or_size_words_in_cluster": sum(len(FAMILY_OR_SIZE_WORDS.findall(p.read_text()))
                                                   for p in (LIB / "cluster").glob("*.py")),
            "printer_imports_above_eval": printer_imports_above_eval()}


def printer_imports_above_eval() -> list[str]:
    "The steb_lib modules the main job's printer (`job.printer`) imports whose notebook is numbered above eval/ (69)."
    numbers, found = notebook_numbers(), set()
    for node in ast.walk(ast.parse((LIB / "job" / "printer.py").read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            name = ("job." if node.level == 1 else "") + node.module if node.level else node.module
            found.add(name.removeprefix("steb_lib."))
        elif isinstance(node, ast.Import): found |= {a.name.removeprefix("steb_lib.") for a in node.names}
    return sorted(m for m in found if numbers.get(m, 0) > 69)


def figures() -> dict:
    lib = Library()
    model = lib.handovers("eval.runner", "evaluate", "model")
    loads = {f: sorted(set(calls_of(lib, f))) for f in ("load_encoder", "build_encoder", "train_on_first_use")}
    return {"model_handovers_from_evaluate": len(model), "of_them_back_up": sum(e["up"] for e in model),
            "of_them_across_modules": sum(e["across"] for e in model),
            "modules_reached": len({e["to"].rsplit(".", 1)[0] for e in model if "." in e["to"]}),
            "make_profile_call_sites": len(calls_of(lib, "make_profile")),
            "profile_none_functions": len(profile_none(lib)),
            "encoder_loaders_above_models": {f: [c for c in callers if not c.startswith("models.")]
                                             for f, callers in loads.items()},
            "lines": {m: len((LIB / (m.replace(".", "/") + ".py")).read_text().splitlines())
                      for m in ("models.encoders", "data.datasets", "job.main_job")},
            "notebooks": notebook_cells(), "shape": module_shape(), "handovers": model}


if __name__ == "__main__":
    f = figures()
    if "--json" in sys.argv: print(json.dumps(f, indent=1)); sys.exit()
    up = f["encoder_loaders_above_models"]
    print(f"the model's hand-overs from eval.runner.evaluate: {f['model_handovers_from_evaluate']} "
          f"({f['of_them_back_up']} back up to a higher module, {f['of_them_across_modules']} from one module to "
          f"another), reaching {f['modules_reached']} modules")
    print(f"make_profile called in {f['make_profile_call_sites']} places; {f['profile_none_functions']} library "
          f"functions take profile=None")
    for name, callers in up.items(): print(f"{name} called above models/ in {len(callers)} places: {', '.join(callers)}")
    print("lines: " + ", ".join(f"{m} {n}" for m, n in f["lines"].items()))
    nb = f["notebooks"]
    print(f"library notebooks: {nb['test_cells']} test cells, {nb['following_another']} ({nb['share_following']:.0%}) "
          f"follow another with no prose, {nb['splitting_computation_from_assertion']} split a computation from its "
          f"assertion; {nb['test_lines_over_110']} test lines over 110 characters")
    sh = f["shape"]
    print(f"modules over 400 non-blank lines: {', '.join(f'{m} {n}' for m, n in sh['modules_over_400'].items()) or 'none'}; "
          f"export cells over 30 lines: {sh['export_cells_over_30']} of {sh['export_cells']} ({sh['share_over_30']:.1%}); "
          f"modules without a docstring: {len(sh['modules_without_docstring'])}; family or size words in cluster/: "
          f"{sh['family_or_size_words_in_cluster']}; printer imports above eval/: "
          f"{len(sh['printer_imports_above_eval'])}")
