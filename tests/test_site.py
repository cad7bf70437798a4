"""The companion site (issue 32, item 4): `scripts/build_site.py` builds it offline and checks it in Debian's headless
Chromium. Every paper notebook is executed once per CI run (test.sh: `build_site.py --execute-into`, a failing notebook fails
that phase) and the build shows those executions (`--runs`); run alone, this test's build executes them itself."""
import importlib.util, json, os, re, subprocess, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("build_site", ROOT / "scripts" / "build_site.py")
build_site = importlib.util.module_from_spec(spec); spec.loader.exec_module(build_site)


def test_links_go_to_pages_files_or_fail_the_build():
    pages, problems = build_site.source_pages(), []
    text = ("[core](lib/00_core.ipynb#hashing), [protocol](../docs/protocol.md#2-tasks), [registry](../data/models/registry.json), "
            "[web](https://example.org), `[in code](nowhere.md)`, [gone](lib/99_gone.ipynb)\n```\n[fenced](nowhere.md)\n```")
    out = build_site.rewrite_links(text, "nbs/02_operational.ipynb", pages, problems)
    assert "[core](lib/00_core.html#hashing)" in out and "[protocol](../docs/protocol.html#2-tasks)" in out
    assert "[registry](https://github.com/steb-lib/steb-lib/blob/main/data/models/registry.json)" in out
    assert "[web](https://example.org)" in out and "`[in code](nowhere.md)`" in out and "[fenced](nowhere.md)" in out
    assert problems == ["nbs/02_operational.ipynb: link to lib/99_gone.ipynb (nbs/lib/99_gone.ipynb is not in the repository)"]
    assert build_site.page_url("README.md") == "index.html"


def test_a_notebook_the_build_cannot_read_is_named_in_one_line(tmp_path):
    "Issue 46, item 13: a notebook cut short, or without cells, stops the build with one line naming it."
    nb = tmp_path / "99_cut.ipynb"
    for text, why in (('{"cells": [{"cell_type": "mark', "cut short"), ('{"metadata": {}}', "has no cells")):
        nb.write_text(text)
        try: build_site.read_notebook(nb)
        except build_site.NotebookError as e: assert str(nb) in str(e) and why in str(e)
        else: raise AssertionError("read")


def test_no_page_points_outside_the_repository():
    "The notebooks, the README and docs/ cite the paper and docs/protocol.md, not the developers' ../shared folder."
    for src in build_site.source_pages():
        text = (ROOT / src).read_text()
        assert "SPEC §" not in text, src
        if src != "README.md": assert "../shared" not in text, src   # the README names the developers' raw mirror


def executed_once():
    "Where test.sh executed the paper notebooks (STEB_EXECUTED_NOTEBOOKS), or None: the build then executes them."
    runs = os.environ.get("STEB_EXECUTED_NOTEBOOKS")
    return Path(runs) if runs else None


def test_the_site_builds_offline_and_every_page_loads_in_headless_chromium(tmp_path):
    out, runs = tmp_path / "site", executed_once()
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    if runs:   # every paper notebook was executed (a missing one would be executed by the build, not silently absent)
        assert {p.name for p in runs.glob("*.ipynb")} == {Path(p).name for p in build_site.paper_notebooks()}, runs
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "build_site.py"), "--out", str(out), "--check",
                        *(["--runs", str(runs)] if runs else ["--execute"])], capture_output=True, text=True, env=env, timeout=1800)
    assert r.returncode == 0, (r.stdout + r.stderr)[-4000:]
    report = json.loads((out / "check.json").read_text())
    pages = build_site.source_pages()
    assert report["passed"] and report["pages"] == len(pages) > 50, report
    assert report["internal_links"] > 1000 and not report["broken_links"] and not report["outside"], report
    assert report["fig1"][0] > 500, report                                  # Fig. 1 decoded in the browser
    assert report["fig1"][2] / report["fig1"][0] >= 0.7, report             # ... and shown near its size: labels legible
    assert report["wide_tables"] == [], report["wide_tables"]              # wide tables scroll inside their box
    assert build_site.SEARCH_FINDS in {link.split("#")[0] for link in report["search"]}, report["search"]   # search works
    position, wide, shown = report["tab2_model_column"]
    assert position == "sticky" and wide > shown, report                    # Tab. 2 scrolls, its model column stays
    png = (out / "screenshots" / "fig1.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 20_000
    html = out / "html"
    assert "reproducible companion" in (html / "index.html").read_text()     # the README is the front page
    order = (html / "nbs/lib/tasks/13_order_alignment.html").read_text()
    assert "exports" in order and "order_alignment_metrics(" in order      # the API summary of the module
    operational = (html / "nbs/02_operational.html").read_text()
    assert len(re.findall(r'<img[^>]+src="data:image/png', operational)) >= 2   # executed: the figures are in the page
    parity = (html / "nbs/parity.html").read_text()
    assert "not run in the site build" in parity and "what it wrote to stderr" in parity   # slow cells skipped, said so
    assert "FutureWarning" not in parity and "TqdmWarning" not in operational              # no warning as a pink box
    outputs = runs / "outputs" if runs else out / "outputs"                   # in the build folder, or the executions'
    assert (outputs / "figures" / "fig1_steb_by_category.png").exists() and (outputs / "tables" / "late_interaction.csv").exists()
    assert (html / "mathjax" / "MathJax.js").exists() and "../../mathjax/MathJax.js" in order
    core = (html / "nbs/lib/00_core.html").read_text()                       # no math: MathJax not loaded
    assert "MathJax.js" not in core and 'class="clipboard-copy-txt tex2jax_ignore"' in core, core[:2000]


def test_mathjax_is_loaded_where_there_is_math_and_never_typesets_code():
    "MathJax's delimiters outside code, scripts and a cell's copy text (tex2jax_ignore) are math; nothing else is."
    for page in ("<p>the mean $m$ of</p>", "<p>\\(x\\)</p>", "<p>$$\nx\n$$</p>", "<p>\\begin{align}x\\end{align}</p>",
                 "<p>costs $5 and $6</p>"):   # a price too: MathJax would typeset it
        assert build_site.has_math(page), page
    for page in ("<pre>echo $HOME $PATH</pre>", "<code>$x$</code> costs $5", "<script>a = '$' + '$'</script>",
                 '<div class="clipboard-copy-txt tex2jax_ignore" id="cell-1">a = $X; b = $Y</div>'):
        assert not build_site.has_math(page), page


def test_every_guide_has_its_place_in_the_reading_order():
    "Issue 59, item 4: the Guides section in reading order; a new guide is placed in GUIDE_ORDER, not appended by name."
    nav = build_site.navigation(build_site.source_pages())
    guides = [next(iter(entry.values())) for entry in nav[1]["Guides"]]
    assert guides == [build_site.page_source_name(p) for p in build_site.GUIDE_ORDER], guides


def test_notebook_pages_get_no_admonition_and_their_figures_an_alt_text():
    "Notebook pages render markdown with nbconvert, which has no admonitions; each output image is described."
    assert "!!!" not in build_site.origin_cell("committed executed")["source"]
    nb = {"cells": [{"cell_type": "markdown", "source": "# Tab. 2\n## Fig. 1: by category"},
                    {"cell_type": "code", "source": "plot_scores_by_category(s)", "outputs": [{"data": {"image/png": "x"}}]},
                    {"cell_type": "code", "source": "ax.set_title('Order alignment per tuple')", "outputs": [{"data": {"image/png": "y"}}, {"text": "z"}]}]}
    assert build_site.figure_alts(nb, "Tab. 2") == ["Figure: Fig. 1: by category (Tab. 2)", "Figure: Order alignment per tuple (Tab. 2)"]


def test_the_check_fails_on_markup_shown_raw(tmp_path):
    "An admonition shown as text, a role left unrendered and nbconvert's placeholder alt text fail the site check."
    html = tmp_path / "html"; html.mkdir()
    (html / "index.html").write_text('<html><body><div class="md-content"><p>!!! note "Outputs"</p><p>see {doc}</p>'
                                     '<pre>!!! in code is fine</pre><img alt="No description has been provided for this image" '
                                     'src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></div></body></html>')
    report = build_site.check_site(html, ["README.md"], tmp_path)
    assert len(report["raw_markup"]) == 3, report                           # the code block's "!!!" is not one
    assert any("raw admonition: !!! note" in m for m in report["raw_markup"]) and any("{doc}" in m for m in report["raw_markup"])
    assert any("No description has been provided" in m for m in report["raw_markup"])
    assert not build_site.summary(report)[1]


def test_the_page_count_docs_site_gives_is_the_sites():
    "Issue 59, item 5: a figure the docs give is checked, not typed and left to drift."
    n = int(re.search(r"loads each of its (\d+) pages", (ROOT / "docs" / "site.md").read_text())[1])
    assert n == len(build_site.source_pages())
