"""Build the companion site offline: the README as the front page, `docs/`, every library notebook as its module's
API page, every paper notebook as executed (its tables and figures in the page: the main job's `_runs/` where it
holds one, else the committed executions; nothing is executed unless asked), then check it in headless Chromium.

    .venv/bin/python scripts/build_site.py            # -> _site/html/index.html
    .venv/bin/python scripts/build_site.py --check    # ... and load every page in Debian's chromium
    .venv/bin/python scripts/build_site.py --execute-into DIR   # only execute the paper notebooks (test.sh does,
    .venv/bin/python scripts/build_site.py --runs DIR --check   # once), then build from those executions

Why mkdocs + mkdocs-jupyter: it installs from PyPI alone and builds with no network. nbdev's own site needs Quarto,
whose PyPI package downloads a binary; Jupyter Book 2 (mystmd) fetches its site theme from the network when it
builds HTML. mkdocs-jupyter renders notebooks with nbconvert, the same HTML JupyterLab exports; MathJax comes from
the `jupyter-server-mathjax` package, so pages load nothing from outside the site.

With `--execute` (or `--execute-into`), paper notebooks run as papermill runs them for the main job (kernel
`python3`, working directory `nbs/`, their default parameters: they read `results/<suite>` if the main job wrote it,
else the shipped results), with tables and figures written under `_site/outputs/`, never over `tables/` and
`figures/`. Cells flagged `#| slow` are skipped, as
`nbdev_test` skips them, and the page says so; `--runs _runs` shows the main job's executed copies instead, slow cells
included. A failing notebook fails the build.
"""
import argparse, concurrent.futures, importlib, importlib.util, inspect, json, os, re, shutil, subprocess, sys, tempfile, time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GIT_URL = "https://github.com/steb-lib/steb-lib"
MATHJAX_PLACEHOLDER = "__STEB_SITE_ROOT__/mathjax"
SLOW_NOTE = "(not run in the site build: a slow cell, skipped as nbdev_test skips it; `bash run.sh` runs it)\n"
# jupyter-server-mathjax ships MathJax 2.7 with the STIX-Web fonts only (as Jupyter configures it)
MATHJAX_FONTS = """MathJax.Hub.Config({"HTML-CSS": {availableFonts: [], webFont: "STIX-Web", imageFont: null}});
MathJax.Ajax.loadComplete("[MathJax]/config/local/steb.js");
"""
# wide tables (Tab. 2 has 8 columns and long model names) scroll inside their box, the model column kept in view:
# notebook outputs (HTML tables, markdown tables); the theme already scrolls the guides' tables in a box of their own,
# where the first column is kept in view too (issue 44, item 6)
SITE_CSS = """.md-grid { max-width: none; }
.jp-OutputArea-output table, .jp-RenderedMarkdown table { display: block; overflow-x: auto; max-width: 100%; }
.jp-OutputArea-output table tr > :first-child, .jp-RenderedMarkdown table tr > :first-child,
.md-typeset table:not([class]) tr > :first-child {
  position: sticky; left: 0; z-index: 1; background: var(--md-default-bg-color, white); }
"""
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-sync",
                  "--disable-background-networking", "--disable-component-update"]


# ---- which files are pages, and where each one lands ---------------------------------------------------------------

def source_pages():
    "Repository-relative paths of every page: the README, `docs/*.md`, every notebook under `nbs/`."
    notebooks = sorted(p for p in (REPO / "nbs").rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
    docs = sorted((REPO / "docs").glob("*.md"))
    return ["README.md"] + [str(p.relative_to(REPO)) for p in docs + notebooks]


def page_source_name(src):
    "Where a page's source sits in the site's source folder (the README becomes `index.md`)."
    return "index.md" if src == "README.md" else src


def page_url(src):
    "The HTML file a page becomes (mkdocs with `use_directory_urls: false`)."
    return str(Path(page_source_name(src)).with_suffix(".html"))


# ---- links: a link to a page goes to its HTML, to another file to the repository, a broken one stops the build --

LINK = re.compile(r"(!?\[[^\]]*\])\(([^)\s]+)\)")
FENCE = re.compile(r"^(```|~~~)")


IMAGES = (".png", ".jpg", ".jpeg", ".svg", ".gif")
ASSETS = set()   # repository files a page shows as images: copied into the site beside their pages


def link_target(target, src, pages, problems, image=False):
    """The URL a repository-relative markdown link `target` in page `src` points to on the site (an image in the
    repository: the same relative path, the file copied into the site, `ASSETS`)."""
    if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"): return target
    path, _, fragment = target.partition("#")
    resolved = os.path.normpath(os.path.join(os.path.dirname(src), path))
    fragment = f"#{fragment}" if fragment else ""
    if image and resolved.lower().endswith(IMAGES) and (REPO / resolved).is_file():
        ASSETS.add(resolved); return target
    if resolved in pages:
        return os.path.relpath(page_url(resolved), os.path.dirname(page_url(src)) or ".") + fragment
    if resolved.startswith("..") or not (REPO / resolved).exists():
        problems.append(f"{src}: link to {target} ({resolved} is not in the repository)")
        return target
    kind = "tree" if (REPO / resolved).is_dir() else "blob"
    return f"{GIT_URL}/{kind}/main/{resolved}{fragment}"


def rewrite_links(markdown, src, pages, problems):
    "Rewrite every markdown link outside code fences and code spans (see `link_target`)."
    out, fenced = [], False
    for line in markdown.split("\n"):
        if FENCE.match(line.lstrip()): fenced = not fenced
        if not fenced:
            parts = re.split(r"(`[^`]*`)", line)   # code spans keep their text
            line = "".join(p if p.startswith("`") else
                           LINK.sub(lambda m: f"{m[1]}({link_target(m[2], src, pages, problems, m[1].startswith('!'))})", p)
                           for p in parts)
        out.append(line)
    return "\n".join(out)


# ---- library notebooks: an API summary at the top -------------------------------------------------------------------

def notebook_module(nb):
    "The module a library notebook exports (`#| default_exp NAME`), or None."
    for cell in nb["cells"]:
        m = re.search(r"^#\|\s*default_exp\s+(\S+)", "".join(cell["source"]), re.M)
        if m: return f"steb_lib.{m[1]}"
    return None


def api_line(module, name):
    "One line of a module's API summary: the name, its signature and the first line of its docstring."
    obj = getattr(module, name)
    if not (inspect.isfunction(obj) or inspect.isclass(obj)): return f"- `{name}`: {type(obj).__name__}"
    try: signature = str(inspect.signature(obj))
    except (TypeError, ValueError): signature = "(...)"
    signature = signature if len(signature) <= 90 else signature[:87] + "...)"
    doc = (inspect.getdoc(obj) or "").split("\n")[0]
    return f"- `{name}{signature}`" + (f": {doc}" if doc else "")


def api_cell(module_name):
    "A markdown cell listing what `module_name` exports (its `__all__`)."
    module = importlib.import_module(module_name)
    lines = [api_line(module, n) for n in getattr(module, "__all__", [])]
    text = f"**API.** `{module_name}` exports {len(lines)} names:\n\n" + "\n".join(lines) if lines else \
        f"**API.** `{module_name}` exports no names."
    return {"cell_type": "markdown", "metadata": {}, "source": text}


# ---- paper notebooks: executed as papermill runs them, slow cells skipped ------------------------------------------

class NotebookError(Exception):
    "A notebook the build cannot read: `main` prints one line naming it (issue 46, item 13)."


def read_notebook(path):
    "A notebook's JSON; one cut short, or without cells, is a `NotebookError` naming it."
    try: nb = json.loads(Path(path).read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as e: raise NotebookError(f"notebook {path} cannot be read (cut short?): {e}")
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list) or not nb["cells"]:
        raise NotebookError(f"notebook {path} has no cells")
    return nb


def is_slow(cell):
    return cell["cell_type"] == "code" and re.match(r"\s*#\|\s*slow\b", "".join(cell["source"])) is not None


def execute_notebook(src, dest, outputs):
    """Execute paper notebook `src` into `dest` (kernel `python3`, working directory `nbs/`), skipping slow cells;
    (its repository path, seconds)."""
    import nbformat
    from nbclient import NotebookClient

    class SkipSlowCells(NotebookClient):
        async def async_execute_cell(self, cell, cell_index, execution_count=None, store_history=True):
            if is_slow(cell):
                cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=SLOW_NOTE)]
                return cell
            return await super().async_execute_cell(cell, cell_index, execution_count, store_history)

    os.environ.update(STEB_TABLES_DIR=str(outputs / "tables"), STEB_FIGURES_DIR=str(outputs / "figures"))
    start = time.time()
    nb = nbformat.reads(json.dumps(read_notebook(src)), as_version=4)
    SkipSlowCells(nb, timeout=1200, kernel_name="python3", resources={"metadata": {"path": str(REPO / "nbs")}}).execute()
    nbformat.write(nb, dest)
    return str(src.relative_to(REPO)), time.time() - start


# the longest first, so that two at a time end together (measured on 2 cores: li_late_interaction and
# train_contrastive take minutes, the table notebooks under one)
LONGEST_FIRST = ("li_late_interaction", "train_contrastive", "train_styledistance", "evaluate_your_model", "parity")


def paper_notebooks():
    "Repository-relative paths of the paper notebooks (`nbs/*.ipynb`), the longest to execute first."
    paper = [p for p in source_pages() if p.endswith(".ipynb") and Path(p).parent == Path("nbs")]
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    return sorted(paper, key=lambda p: rank.get(Path(p).stem, len(rank)))


def execute_notebooks(todo, outputs, jobs):
    """Execute each (source, destination) pair, `jobs` at a time, each in a fresh process (spawned: no state of this
    one, no socket of an earlier kernel, is inherited); tables and figures go under `outputs`."""
    import multiprocessing
    for d in ("tables", "figures"): (outputs / d).mkdir(parents=True, exist_ok=True)
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(max_workers=jobs, mp_context=context, max_tasks_per_child=1) as pool:
        running = {pool.submit(execute_notebook, s, d, outputs): s for s, d in todo}
        for done in concurrent.futures.as_completed(running):
            try: name, seconds = done.result()   # a failing notebook raises here and stops the build, named
            except Exception as e: sys.exit(f"paper notebook {running[done].relative_to(REPO)} failed: {type(e).__name__}: {e}")
            print(f"executed {name} in {seconds:.0f} s", flush=True)


def executed_paper_notebooks(names, stage, runs, jobs, execute=False):
    """Write each paper notebook, executed, into `stage`: with `execute`, run here; else the copy in `runs` (the main
    job's `_runs/` by default) if there is one, else the committed notebook, committed executed. Returns where each came from."""
    todo, origin = [], {}
    for name in names:
        dest, ran = stage / name, Path(runs or REPO / "_runs") / Path(name).name
        if execute: todo.append((REPO / name, dest)); origin[name] = "executed for this site build"
        elif ran.exists(): shutil.copyfile(ran, dest); origin[name] = f"executed in {os.path.relpath(ran, REPO)}"
        else: shutil.copyfile(REPO / name, dest); origin[name] = "committed executed, on the committed results"
    execute_notebooks(todo, stage.parent / "outputs", jobs)
    return origin


def execute_into(runs, jobs):
    """Execute every paper notebook into `runs` as the site build does (slow cells skipped), for a later
    `--runs runs` build and for the tests that read the executions; tables and figures under `runs/outputs`."""
    runs = Path(runs).resolve(); runs.mkdir(parents=True, exist_ok=True)
    execute_notebooks([(REPO / p, runs / Path(p).name) for p in paper_notebooks()], runs / "outputs", jobs)


# ---- paper notebooks committed executed (issue 44, item 4) --------------------------------------------------------
# The paper notebooks are committed with the outputs of an execution on the committed results, so GitHub and JupyterLab
# show their tables and figures. `--store-executed` writes them; the tests compare each committed notebook with test.sh's
# execution of it. What is kept: stdout, results and displays (tables, figures); what a notebook writes to stderr
# (progress bars, libraries' warnings) is left out. Paths are written relative to the repository and to the execution's
# outputs folder, and temporary folders' random names masked, so that another checkout writes the same bytes.

TEMP_NAME = re.compile(r"(/tmp/[\w.]+?[-_])[a-z0-9_]{8}\b")
TIMING = re.compile(r"\b\d+(?:[.,]\d+)? ?(?:s|ms|min|seconds|[a-z]+/s)\b")   # 3.2 s, 12 min, 4.9 pairs/s
ADDRESS = re.compile(r"\b0x[0-9a-f]{6,}\b")
CACHE_COUNTS = re.compile(r"\(\d+ texts embedded, \d+ cached\)")   # how much another run had cached already
TRAINER_SPEED = re.compile(r"('train_(?:runtime|samples_per_second|steps_per_second)': )'[\d.e+-]+'")   # the HF trainer's


def is_stderr(output) -> bool:
    "An output a notebook wrote to stderr (progress bars, libraries' warnings): neither committed, compared nor shown."
    return output.get("output_type") == "stream" and output.get("name") == "stderr"


def relative_text(text, outputs):
    "`text` with the repository's path and the outputs folder's written relative, temporary folders' names masked."
    for root in (f"{Path(outputs).resolve()}/", f"{REPO}/"): text = text.replace(root, "")
    return ADDRESS.sub("0x…", TEMP_NAME.sub(r"\1XXXXXXXX", text))   # an object's address: another each run


def kept_outputs(cell, outputs):
    """A code cell's outputs as committed: stderr left out, consecutive stdout pieces joined (how a stream is cut
    depends on when it was flushed), the text of the others made relative (see `relative_text`)."""
    kept = []
    for o in cell.get("outputs", []):
        if is_stderr(o): continue
        o = json.loads(json.dumps(o))
        if "text" in o: o["text"] = relative_text("".join(o["text"]), outputs)
        if o.get("output_type") == "stream" and kept and kept[-1].get("output_type") == "stream":
            kept[-1]["text"] += o["text"]; continue
        for kind, value in o.get("data", {}).items():
            if not kind.startswith("image/"): o["data"][kind] = relative_text("".join(value) if isinstance(value, list) else value, outputs)
        o.get("metadata", {}).pop("execution", None)
        kept.append(o)
    return kept


STYLER_ID = re.compile(r"\bT_[0-9a-f]{5}(?=[_\"\s])")   # pandas' Styler names each table with a random uuid


def numbered_styler_ids(nb):
    "Each random Styler table id of the notebook replaced by `T_steb<n>`, numbered in order of appearance."
    names = {}
    def name(m): return names.setdefault(m[0], f"T_steb{len(names) + 1}")
    for cell in nb["cells"]:
        for o in cell.get("outputs", []):
            if "text/html" in o.get("data", {}): o["data"]["text/html"] = STYLER_ID.sub(name, o["data"]["text/html"])
    return nb


def stored_notebook(source, executed, outputs):
    "Notebook `source` (the repository's) with the outputs and execution counts of its execution `executed`."
    def cells(nb): return ["".join(c["source"]) for c in nb["cells"]]
    if cells(source) != cells(executed):
        raise NotebookError("the execution is not of this notebook's current cells: execute it again")
    nb = json.loads(json.dumps(source))
    for cell, ran in zip(nb["cells"], executed["cells"]):
        if cell["cell_type"] != "code": continue
        cell["outputs"], cell["execution_count"] = kept_outputs(ran, outputs), ran.get("execution_count")
        cell["metadata"].pop("execution", None)
    return numbered_styler_ids(nb)


def comparable(nb):
    "Per code cell, its outputs with timings and memory addresses masked: what must equal between two executions."
    def mask(value):
        if not isinstance(value, str): return value
        value = CACHE_COUNTS.sub("(… texts embedded, … cached)", TRAINER_SPEED.sub(r"\1…", value))
        return ADDRESS.sub("0x…", TIMING.sub("…", value))
    return [[{k: (mask(v) if k == "text" else {kind: mask(x) for kind, x in v.items()} if k == "data" else v)
              for k, v in o.items() if k in ("output_type", "name", "text", "data")}
             for o in c.get("outputs", []) if not is_stderr(o)]
            for c in nb["cells"] if c["cell_type"] == "code"]


def output_differences(committed, executed, outputs):
    "Where committed notebook `committed` shows other outputs than its execution `executed`, cell by cell."
    mine, theirs = comparable(committed), comparable(stored_notebook(committed, executed, outputs))
    return [f"code cell {i + 1}: committed {json.dumps(a)[:300]} / executed {json.dumps(b)[:300]}"
            for i, (a, b) in enumerate(zip(mine, theirs)) if a != b]


def store_executed(runs):
    "Write every paper notebook back into `nbs/` with the outputs of its execution in `runs` (see `stored_notebook`)."
    runs = Path(runs).resolve()
    for name in paper_notebooks():
        nb = stored_notebook(read_notebook(REPO / name), read_notebook(runs / Path(name).name), runs / "outputs")
        (REPO / name).write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"stored {name} with its outputs")


# ---- the source folder, the configuration, the build ---------------------------------------------------------------

def origin_cell(origin):
    """A note under a paper notebook's title: where the outputs shown come from (issue 44, item 6); a quote, which
    notebook pages render (an admonition is python-markdown's, not nbconvert's: it showed as raw `!!!`)."""
    return {"cell_type": "markdown", "metadata": {}, "source": f"> **Outputs.** {origin}; what it wrote to "
            "stderr (progress bars, libraries' warnings) is not shown."}


# ---- figures' alt texts: nbconvert writes "No description has been provided for this image" on every output image;
# each gets one from its notebook instead: the title its cell sets, else the section it is in (issue 59, item 4)

NO_ALT = 'alt="No description has been provided for this image"'
ALT_TEXTS = {}   # page URL -> the alt text of each image output, in the page's order
TITLE_IN_CODE = re.compile(r"""(?:suptitle|set_title|title)\s*[(=]\s*f?["']([^"'{}]{4,})["']""")


def figure_alts(nb, title):
    "The alt text of each image output of `nb`, in order: the title its cell sets, else its section's heading."
    alts, heading = [], title
    for cell in nb["cells"]:
        text = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            headings = re.findall(r"^#{1,4}\s+(.+)$", text, re.M)
            heading = headings[-1].strip() if headings else heading
            continue
        named = TITLE_IN_CODE.search(text)
        for o in cell.get("outputs", []):
            if any(kind.startswith("image/") for kind in o.get("data", {})):
                alts.append(f"Figure: {named[1] if named else heading} ({title})")
    return alts


def apply_alt_texts(html, problems):
    "Give each output image of each notebook page its alt text (`ALT_TEXTS`); a count that differs is a problem."
    for url, alts in ALT_TEXTS.items():
        page = html / url
        text = page.read_text(encoding="utf-8")
        if text.count(NO_ALT) != len(alts):
            problems.append(f"{url}: {text.count(NO_ALT)} images without alt text, {len(alts)} in the notebook")
            continue
        for alt in alts: text = text.replace(NO_ALT, f'alt="{html_escape(alt)}"', 1)
        page.write_text(text, encoding="utf-8")


def html_escape(text):
    import html
    return html.escape(text, quote=True)


def without_stderr(nb):
    "The notebook without stderr outputs: progress bars and library warnings would show as pink boxes."
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"] = [o for o in cell.get("outputs", []) if not is_stderr(o)]
    return nb


def stage_pages(stage, runs, jobs, execute=False):
    "Write every page into `stage` with links rewritten; library notebooks get an API cell, paper ones their outputs."
    pages = source_pages(); problems = []
    paper = paper_notebooks()
    for src in pages: (stage / page_source_name(src)).parent.mkdir(parents=True, exist_ok=True)
    origin = executed_paper_notebooks(paper, stage, runs, jobs, execute)
    for src in pages:
        dest = stage / page_source_name(src)
        if not src.endswith(".ipynb"):
            dest.write_text(rewrite_links((REPO / src).read_text(), src, pages, problems)); continue
        nb = without_stderr(read_notebook(dest if src in paper else REPO / src))
        for cell in nb["cells"]:
            if cell["cell_type"] == "markdown":
                cell["source"] = rewrite_links("".join(cell["source"]), src, pages, problems)
        module = notebook_module(nb)
        if module: nb["cells"].insert(1, api_cell(module))
        if src in origin: nb["cells"].insert(1, origin_cell(origin[src]))
        if alts := figure_alts(nb, notebook_title(src)): ALT_TEXTS[page_url(src)] = alts
        dest.write_text(json.dumps(nb, indent=1, ensure_ascii=False))
    if problems: sys.exit("broken links in the sources:\n  " + "\n  ".join(problems))
    for asset in ASSETS: (stage / asset).parent.mkdir(parents=True, exist_ok=True); shutil.copyfile(REPO / asset, stage / asset)
    return pages


def notebook_title(src):
    "A page's title in the navigation: its first heading."
    if src == "README.md": return "Home"
    text = (REPO / src).read_text()
    if src.endswith(".ipynb"): text = "".join(read_notebook(REPO / src)["cells"][0]["source"])
    m = re.search(r"^#\s+(.+)$", text, re.M)
    return m[1].strip() if m else Path(src).stem


# the guides in reading order: the main job, your own model and data, how the numbers are made and what they mean,
# training, the other methods, running elsewhere, then the project's own pages (a guide not named here comes last,
# and a test says so)
GUIDE_ORDER = ["docs/main-job.md", "nbs/evaluate_your_model.ipynb", "docs/own-data.md", "docs/tables.md",
               "nbs/upstream_versions.ipynb", "docs/protocol.md", "docs/profiles.md", "nbs/parity.ipynb",
               "docs/reproducibility.md", "nbs/reproducibility.ipynb", "docs/datasets.md", "docs/extending.md", "docs/training.md",
               "nbs/train_styledistance.ipynb", "nbs/train_contrastive.ipynb", "docs/late-interaction.md",
               "nbs/li_late_interaction.ipynb", "docs/prompting.md", "docs/cluster.md", "docs/benchmarks.md",
               "docs/tests.md", "docs/layout.md", "docs/site.md"]


def navigation(pages):
    "Home, the guides, the paper notebooks, then the library notebooks by folder."
    def entry(p): return {notebook_title(p): page_source_name(p)}
    top = [p for p in pages if Path(p).parent == Path("nbs")]
    guides = [p for p in pages if p.startswith("docs/")] + [p for p in top if not re.match(r"nbs/(\d\d|f\d)_", p)]
    guides = sorted(guides, key=lambda p: GUIDE_ORDER.index(p) if p in GUIDE_ORDER else len(GUIDE_ORDER))
    paper = [p for p in top if p not in guides]
    library = {}
    for p in pages:
        if p.startswith("nbs/lib/"): library.setdefault(Path(p).parent.name.replace("lib", "core"), []).append(p)
    return [{"Home": "index.md"}, {"Guides": [entry(p) for p in guides]}, {"Paper": [entry(p) for p in paper]},
            {"Library": [{folder: [entry(p) for p in ps]} for folder, ps in library.items()]}]


def mkdocs_config(stage, html, pages):
    "The mkdocs configuration (JSON is YAML). No `repo_url`: the theme would ask GitHub's API for the repository's stars."
    return {"site_name": "steb-lib", "site_description": "Reproducible companion to STEB, the Style Text Embedding Benchmark",
            "docs_dir": str(stage), "site_dir": str(html), "use_directory_urls": False,
            "theme": {"name": "material", "font": False, "features": ["navigation.sections", "content.code.copy"]},
            "markdown_extensions": ["tables", "toc", "admonition", "attr_list"], "extra_css": ["steb.css"],
            "plugins": ["search", {"mkdocs-jupyter": {
                "include": ["*.ipynb"], "execute": False, "include_source": True, "allow_errors": False,
                "cache_dir": str(Path(stage).parent / "cache"),
                "custom_mathjax_url": f"{MATHJAX_PLACEHOLDER}/MathJax.js?config=TeX-AMS-MML_HTMLorMML-full,Safe,local/steb"}}],
            "nav": navigation(pages)}


# what MathJax 2 typesets (tex2jax as nbconvert configures it: $..$, $$..$$, \(..\), \[..\], environments; MathML),
# and where it does not look (its skipTags: scripts, styles, code; elements of class tex2jax_ignore); any two dollars
# count, so a price keeps it too
MATH = re.compile(r"\$[^$]+\$|\\\(|\\\[|\\begin\{|<math[\s>]")
NOT_TYPESET = re.compile(r'<(script|noscript|style|textarea|pre|code)\b.*?</\1>|<div class="[^"]*tex2jax_ignore.*?</div>',
                         re.S | re.I)
MATHJAX_LOADER = re.compile(r"<!-- Load mathjax -->.*?<!-- End of mathjax configuration -->", re.S)
# mkdocs-jupyter keeps each cell's source as text in a hidden div for its copy button; MathJax typeset the dollars
# of a source there (`$STEB_TABLES_DIR`, ... `$`), and the button copied math, not the code
COPY_TEXT = '<div class="clipboard-copy-txt"'


def has_math(page):
    "Whether MathJax would find anything to typeset in this page's HTML."
    return bool(MATH.search(NOT_TYPESET.sub("", page)))


def install_mathjax(html):
    """Copy MathJax (from jupyter-server-mathjax) into the site and point every page with math at it by a relative
    path. A notebook page without math loads none: MathJax would find nothing to typeset there, and loading it on the
    71 such pages cost the site check 53 of its 233 CPU-seconds (2026-12-08; docs/site.md)."""
    package = importlib.util.find_spec("jupyter_server_mathjax")   # found, not imported: that imports a Jupyter server (5 s)
    shutil.copytree(Path(package.origin).parent / "static", html / "mathjax")
    (html / "mathjax/config/local").mkdir(parents=True, exist_ok=True)
    (html / "mathjax/config/local/steb.js").write_text(MATHJAX_FONTS)
    for page in html.rglob("*.html"):
        text = page.read_text()
        if MATHJAX_PLACEHOLDER not in text: continue
        text = text.replace(COPY_TEXT, '<div class="clipboard-copy-txt tex2jax_ignore"')
        if has_math(text): page.write_text(text.replace(MATHJAX_PLACEHOLDER, f"{os.path.relpath(html, page.parent)}/mathjax"))
        else: page.write_text(MATHJAX_LOADER.sub("", text))


def build_site(out, runs=None, jobs=2, execute=False):
    "Build the site into `out/html` (sources in `out/src`, tables and figures of `execute`d notebooks in `out/outputs`)."
    out = Path(out).resolve()
    stage, html = out / "src", out / "html"
    for d in (stage, html, out / "outputs"): shutil.rmtree(d, ignore_errors=True)
    stage.mkdir(parents=True)
    pages = stage_pages(stage, runs, jobs, execute)
    (stage / "steb.css").write_text(SITE_CSS)
    config = out / "mkdocs.yml"
    config.write_text(json.dumps(mkdocs_config(stage, html, pages), indent=1))
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-f", str(config)], check=True,
                   env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    install_mathjax(html)
    problems = []; apply_alt_texts(html, problems)
    if problems: sys.exit("figures without their alt text:\n  " + "\n  ".join(problems))
    print(f"site: {html / 'index.html'} ({len(pages)} pages)")
    return html, pages


# ---- the check: every page in headless Chromium ---------------------------------------------------------------------

def serve(directory):
    "Serve `directory` on a loopback port in a thread; returns (server, base URL)."
    import functools, http.server, threading
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args): pass
    class Server(http.server.ThreadingHTTPServer):
        def handle_error(self, request, address):   # a browser that dropped a connection it no longer needs
            if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
                super().handle_error(request, address)
    server = Server(("127.0.0.1", 0), functools.partial(Quiet, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def visit(page, url, report):
    "Load one page; record its status, its links and ids, and what went wrong."
    response = page.goto(url, wait_until="networkidle")   # MathJax and its fonts included
    if response is None or response.status != 200: report["bad_pages"].append(f"{url}: {response and response.status}")
    report["links"][url] = page.eval_on_selector_all("a[href]", "els => els.map(e => e.href)")
    report["ids"][url] = set(page.eval_on_selector_all("[id]", "els => els.map(e => e.id)"))
    report["wide_tables"] += [f"{url}: {t}" for t in page.evaluate(WIDE_TABLES)]
    report["raw_markup"] += [f"{url}: {m}" for m in page.evaluate(RAW_MARKUP)]


# tables whose box reaches past the page's content column (scrolling inside their box is what they should do)
WIDE_TABLES = """() => {
    const content = document.querySelector('.md-content');
    if (!content) return [];
    const right = content.getBoundingClientRect().right + 1;
    const fits = t => {   // the table, or a box around it that scrolls sideways (and so clips it), within the page
        for (let e = t; e && e !== content; e = e.parentElement)
            if ((e === t || ['auto', 'scroll'].includes(getComputedStyle(e).overflowX))
                && e.getBoundingClientRect().right <= right) return true;
        return false;
    };
    return [...document.querySelectorAll('table')].filter(t => !fits(t)).map(t => t.textContent.trim().slice(0, 60));
}"""


# markup the page shows as text instead of rendering it, outside code: an admonition (`!!! note`), a MyST/Sphinx role
# (`{doc}`x``), and images whose alt text is nbconvert's placeholder
RAW_MARKUP = """() => {
    const content = document.querySelector('.md-content');
    if (!content) return [];
    const text = content.cloneNode(true);
    text.querySelectorAll('pre, code, .highlight, .jp-InputArea').forEach(e => e.remove());
    const found = [], words = text.textContent;
    for (const m of words.matchAll(/(^|\\n)\\s*(!!!\\s*\\w+[^\\n]{0,40})/g)) found.push(`raw admonition: ${m[2]}`);
    const roles = /\\{(doc|ref|numref|term|eq|cite|download|math|py:\\w+|func|class|meth|mod|attr)\\}/g;
    for (const m of words.matchAll(roles)) found.push(`raw role: ${m[0]}`);
    const placeholder = [...document.querySelectorAll('img')].filter(i => /No description has been provided/.test(i.alt));
    if (placeholder.length) found.push(`${placeholder.length} image(s) with the alt text "No description has been provided"`);
    const copied = document.querySelectorAll('.clipboard-copy-txt .MathJax, .clipboard-copy-txt .MathJax_Preview');
    if (copied.length) found.push(`${copied.length} piece(s) of math typeset in a cell's copy text`);
    return found;
}"""


# the position of the first cell of the widest table's rows on the page (Tab. 2/6): "sticky" keeps the model in view
STICKY_FIRST_COLUMN = """() => {
    const tables = [...document.querySelectorAll('.jp-OutputArea-output table, .jp-RenderedMarkdown table')];
    const widest = tables.sort((a, b) => b.scrollWidth - a.scrollWidth)[0];
    const cell = widest && widest.querySelector('tr > :first-child');
    return cell ? [getComputedStyle(cell).position, widest.scrollWidth, widest.clientWidth] : null;
}"""


def figure_after_heading(page, heading):
    "Width × height (as decoded) of the first image after the first section heading starting `heading`, or None."
    return page.evaluate("""heading => {
        const els = [...document.querySelectorAll('h2, h3, img')];
        const at = els.findIndex(e => e.tagName !== 'IMG' && e.textContent.trim().startsWith(heading));
        const img = at < 0 ? null : els.slice(at).find(e => e.tagName === 'IMG');
        if (!img) return null;
        img.setAttribute('data-steb-checked', heading);
        img.scrollIntoView();
        return [img.naturalWidth, img.naturalHeight, img.getBoundingClientRect().width];
    }""", heading)


def broken_links(report, base, html):
    "Internal links whose file is missing or whose fragment names no id on the target page."
    broken = []
    for url, links in report["links"].items():
        for link in links:
            if not link.startswith(base): continue
            target, _, fragment = link.partition("#")
            path = html / target[len(base):].split("?")[0]
            if path.is_dir(): path = path / "index.html"
            if not path.exists(): broken.append(f"{url} -> {link}")
            elif fragment and target in report["ids"] and fragment not in report["ids"][target] \
                    and f'id="{fragment}"' not in path.read_text(encoding="utf-8", errors="replace"):
                # the ids read in the browser, else the served file's (under load a page's DOM was once read
                # without the ids its HTML holds: the 14th session's fresh-clone CI run)
                broken.append(f"{url} -> {link} (no id {fragment!r})")
    return broken


def watched_page(browser, base, report):
    "A new page whose requests, failures and script errors go into `report`."
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    local = (base, "data:", "blob:", "about:")   # MathJax measures fonts in about:blank frames
    page.on("request", lambda r: r.url.startswith(local) or report["outside"].append(r.url))
    page.on("requestfailed", lambda r: r.url.startswith("about:") or "ERR_ABORTED" in (r.failure or "")
            or report["failed"].append(f"{r.url} ({r.failure})"))   # aborted: the next page was asked for
    page.on("response", lambda r: r.status < 400 or report["failed"].append(f"{r.url} ({r.status})"))
    page.on("pageerror", lambda e: report["errors"].append(f"{page.url}: {e}"))
    return page


def visit_pages(urls, base, report, chromium, search_index):
    """Load `urls` one after the other in a browser of this thread's own (Playwright's sync API is one per thread).
    Each page gets `search_index` for the site's search index: the theme's search worker indexes the whole file at
    every page load (4.3 MB, most of a page's CPU time); the real index is checked once, by a search (`searched`)."""
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_FLAGS)
        page = watched_page(browser, base, report)
        page.route("**/search/search_index.json", lambda route: route.fulfill(json=search_index))
        for url in urls: visit(page, url, report)
        browser.close()


def searched(page, base, query):
    "The pages (site paths) the site's search lists for `query`, typed into the search box of the loaded page."
    if not page.locator("input.md-search__input").count(): return []
    page.evaluate("() => { document.getElementById('__search').checked = true; }")   # the theme's search toggle
    page.locator("input.md-search__input").press_sequentially(query)
    page.wait_for_selector("a.md-search-result__link", state="attached", timeout=120_000)
    links = page.eval_on_selector_all("a.md-search-result__link", "els => els.map(e => e.href)")
    return [link.removeprefix(base) for link in links]


# a search on the front page, with the site's whole index: it must list the page that defines the function
SEARCH_QUERY, SEARCH_FINDS = "order_alignment_metrics", "nbs/lib/tasks/13_order_alignment.html"

# pages loaded at a time: a page's load is mostly waiting (MathJax, then 500 ms without a request for "networkidle"),
# so four browsers keep the cores busy where one left them idle (85 pages, one core busy with other work: 168 s in one
# browser, 97 s in four)
BROWSERS = 4


def check_site(html, pages, out, chromium="/usr/bin/chromium"):
    "Load every page in headless Chromium; returns a report (bad pages, broken links, outside requests, errors, Fig. 1)."
    from playwright.sync_api import sync_playwright
    if not Path(chromium).exists():
        sys.exit(f"{chromium} not found: install Debian's chromium (apt-get install chromium), as test.sh does")
    server, base = serve(html)
    report = {"bad_pages": [], "links": {}, "ids": {}, "outside": [], "failed": [], "errors": [], "wide_tables": [],
              "raw_markup": []}
    urls = [base + page_url(p) for p in pages]
    try:
        with concurrent.futures.ThreadPoolExecutor(BROWSERS) as pool:
            parts = [urls[i::BROWSERS] for i in range(BROWSERS)]
            index = html / "search/search_index.json"
            small = {"config": json.loads(index.read_text())["config"] if index.exists() else {}, "docs": []}
            list(pool.map(lambda part: visit_pages(part, base, report, chromium, small), parts))
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_FLAGS)
            page = watched_page(browser, base, report)
            page.goto(base + page_url("nbs/02_operational.ipynb"), wait_until="networkidle")
            report["fig1"] = figure_after_heading(page, "Fig. 1")
            report["tab2_model_column"] = page.evaluate(STICKY_FIRST_COLUMN)
            (out / "screenshots").mkdir(exist_ok=True)
            if report["fig1"]:
                page.add_style_tag(content=".md-header { display: none }")   # the sticky header would cover it
                page.locator("img[data-steb-checked]").screenshot(path=str(out / "screenshots" / "fig1.png"))
            page.goto(base + "index.html", wait_until="load")
            page.screenshot(path=str(out / "screenshots" / "index.png"))
            report["search"] = searched(page, base, SEARCH_QUERY)
            browser.close()
    finally:
        server.shutdown()
    report["broken_links"] = broken_links(report, base, html)
    report["pages"] = len(urls)
    report["internal_links"] = sum(l.startswith(base) for links in report.pop("links").values() for l in links)
    report.pop("ids")
    return report


def summary(report):
    "The check's findings as lines, and whether it passed."
    fig = report.get("fig1")
    lines = [f"{report['pages']} pages loaded in headless Chromium, {report['internal_links']} internal links followed",
             f"bad pages: {report['bad_pages'] or 'none'}", f"broken internal links: {report['broken_links'] or 'none'}",
             f"requests outside the site: {report['outside'] or 'none'}", f"failed requests: {report['failed'] or 'none'}",
             f"script errors: {report['errors'] or 'none'}", f"tables wider than the page: {report['wide_tables'] or 'none'}",
             f"markup shown raw: {report['raw_markup'] or 'none'}",
             f"Fig. 1: {f'{fig[0]} x {fig[1]} px, shown at {fig[2] / fig[0]:.0%} of its size' if fig else 'not found'}",
             f"Tab. 2's model column: {report.get('tab2_model_column')}",
             f"search for {SEARCH_QUERY}: {len(report.get('search', []))} results"]
    # legible: Fig. 1 shown at 70% of its pixels or more (its 8-point labels at 130 dpi are 14 px: 10 px or more)
    ok = not any(report[k] for k in ("bad_pages", "broken_links", "outside", "failed", "errors", "wide_tables",
                                     "raw_markup")) \
        and bool(fig and fig[0] and fig[2] / fig[0] >= 0.7) \
        and any(link.split("#")[0] == SEARCH_FINDS for link in report.get("search", []))
    return lines, ok


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=str(REPO / "_site"), help="build folder (default: _site)")
    parser.add_argument("--runs", help="take executed paper notebooks from here (default: _runs, the main job's, "
                        "where it holds one; else the committed notebooks, committed executed)")
    parser.add_argument("--execute", action="store_true", help="execute every paper notebook again for this build")
    parser.add_argument("--store-executed", action="store_true", help="write the paper notebooks back into nbs/ "
                        "with the outputs of an execution (--runs DIR, else executed now): commit them")
    parser.add_argument("--jobs", type=int, default=2, help="paper notebooks executed at a time (default: 2)")
    parser.add_argument("--check", action="store_true", help="then load every page in headless Chromium")
    parser.add_argument("--execute-into", metavar="DIR", help="only execute the paper notebooks into DIR (slow cells "
                        "skipped; tables and figures in DIR/outputs), for a later --runs DIR build")
    args = parser.parse_args(argv)
    started = time.time()
    if args.execute_into:
        execute_into(args.execute_into, args.jobs)
        print(f"paper notebooks executed into {args.execute_into} in {time.time() - started:.0f} s")
        return 0
    if args.store_executed:
        runs = args.runs or tempfile.mkdtemp(prefix="steb-executed-")
        if not args.runs: execute_into(runs, args.jobs)
        store_executed(runs)
        return 0
    html, pages = build_site(args.out, args.runs, args.jobs, args.execute)
    print(f"built in {time.time() - started:.0f} s")
    if not args.check: return 0
    started = time.time()
    report = check_site(html, pages, Path(args.out).resolve())
    print(f"checked in {time.time() - started:.0f} s")
    lines, ok = summary(report)
    (Path(args.out).resolve() / "check.json").write_text(json.dumps({**report, "passed": ok}, indent=1))
    print("\n".join(lines) + f"\nscreenshots: {Path(args.out).resolve() / 'screenshots'}")
    return 0 if ok else 1


if __name__ == "__main__":
    try: sys.exit(main())
    except NotebookError as e: sys.exit(f"build_site: {e}")
