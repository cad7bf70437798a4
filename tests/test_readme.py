"""The README is a front page (issue 44, item 3): at most 250 lines, every guide under docs/ linked from it, every
`steb` command that the README or a guide shows accepted by the CLI's parser, and the README's Python example run as
written (the packaged all-MiniLM-L6-v2 as a `SentenceTransformer`, offline)."""
import json
import os, re, shlex, subprocess, sys
from pathlib import Path
import pytest
from steb_lib.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
GUIDES = sorted((ROOT / "docs").glob("*.md"))
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.M | re.S)


def code_blocks(text, language):
    "The bodies of a markdown text's fenced code blocks of `language`."
    return [m[2] for m in FENCE.finditer(text) if m[1] == language]


def steb_commands(text):
    """Every `steb ...` command of a markdown text's bash blocks, as argv after `steb` (continuations joined,
    comments dropped, `;`/`&&` split); a line that shows alternatives (`[...]`, `a|b`, `...`, `<...>`) is a template."""
    commands = []
    for block in code_blocks(text, "bash"):
        for line in block.replace("\\\n", " ").splitlines():
            if any(t in line.split(" #")[0] for t in ("[", "|", "...", "<", "COMMIT")): continue
            lex = shlex.shlex(line, posix=True, punctuation_chars=True)
            lex.whitespace_split, lex.commenters = True, "#"
            argv = []
            for word in [*lex, ";"]:
                if word not in (";", "&&"): argv.append(word); continue
                while argv and "=" in argv[0] and not argv[0].startswith("-"): argv = argv[1:]   # VAR=value
                if argv and argv[0].endswith("/steb") or argv[:1] == ["steb"]: commands.append(argv[1:])
                argv = []
    return commands


def test_the_readme_is_a_front_page_that_links_every_guide():
    assert len(README.splitlines()) <= 250, len(README.splitlines())
    linked = set(re.findall(r"\]\((docs/[^)#]+\.md)", README))
    assert {f"docs/{g.name}" for g in GUIDES} == linked, linked
    assert "bash run.sh" in README and "bash test.sh" in README


def test_template_lines_are_recognised():
    text = "```bash\nsteb evaluate a --suite lite   # x\nHF_HUB_OFFLINE=1 .venv/bin/steb table --csv; steb status \\\n" \
           "  --results-dir r\nsteb evaluate m [--seed 42]\npip install steb-lib\n```\n"
    assert steb_commands(text) == [["evaluate", "a", "--suite", "lite"], ["table", "--csv"], ["status", "--results-dir", "r"]]


@pytest.mark.parametrize("page", ["README.md"] + [f"docs/{g.name}" for g in GUIDES])
def test_every_steb_command_shown_is_accepted_by_the_cli(page):
    "A command a page shows parses as written: no unknown command, flag or choice (argparse exits 2 on those)."
    for argv in steb_commands((ROOT / page).read_text()):
        try: build_parser(*argv[:2]).parse_args(argv)
        except SystemExit as e:   # --help exits 0 after printing; argparse refuses with 2
            if e.code != 0: raise AssertionError(f"{page}: `steb {shlex.join(argv)}` is refused (exit {e.code})")


def test_the_readme_python_example_runs_as_written(tmp_path):
    (example,) = [b for b in code_blocks(README, "python") if "model_path" in b]
    (through_mteb,) = [b for b in code_blocks(README, "python") if "SentenceTransformerEncoderWrapper" in b]   # goes on
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "STEB_CACHE": str(tmp_path / "cache")}
    r = subprocess.run([sys.executable, "-c", example + "\n" + through_mteb], cwd=tmp_path, env=env, capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    assert re.search(r"my-style-model/STEL_feature/order_alignment\s+distractor_accuracy\s+0\.\d+", r.stdout), r.stdout
    assert list((tmp_path / "results" / "my-style-model" / "STEL_feature").glob("order_alignment*.json"))
    scores = [json.loads((tmp_path / "results" / name / "STEL_feature" / "order_alignment.json").read_text())["main_score"]
              for name in ("my-style-model", "my-style-model-mteb")]
    assert scores[0] == scores[1], scores                                  # MTEB's wrapper scores as the model itself


# what `steb paper` prints, as tests/job/test_main_job.py reads it from a real run
MAIN_JOB_LINES = (
    re.compile(r"the main job, \d+ models?: \d+ results to compute \(.+; \d+ already there\)(; .+)?\. A line per result as it lands"),
    re.compile(r"→ (evaluating \S+|training \S+: (\d+ steps \(worker \d\)|step \d+/\d+ \(\d+\.\d s a step\))|notebook \w+"
               r"|\S+: the multilingual datasets, truncated|parity runs of \S+ under \S+)( \(worker \d\))?"),
    re.compile(r"\[\d+/\d+(, ~\d+ (min|s) left)?\] \S+ / \S+ / \w+( \(truncate\))?( \(parity: \S+\))?: \d\.\d{4} \(\d+\.\d s\)"),
    re.compile(r"verified \d+ stores against the committed ones: \d+ results: \d+ identical(, .+)? → (reproduced|NOT reproduced .+)"),
)


def test_the_readmes_main_job_lines_are_as_the_job_prints_them():
    "Issue 59, item 5: the sample of the main job's terminal is in the formats it prints (checked, not typed)."
    (sample,) = [b for b in code_blocks(README, "text") if b.startswith("the main job, ")]
    for line in sample.strip().splitlines():
        assert any(p.match(line) for p in MAIN_JOB_LINES), line
