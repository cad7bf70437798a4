"""Issue 75: every registry entry with a hub id loads as its real repository is laid out. The loopback hub serves a
tiny replica of each repository (`tests/hub_replicas.py`: its file names, config, tokenizer files, sentence-transformers
modules, weight format, remote code in another repository at its pinned commit), at the registry's pinned commit where
there is one. Through the console script: `steb fetch` gets them all with network, records in the user's models.lock the
commit of every model the registry does not pin and every fetched commit's files; `steb evaluate` then runs each by its
registry name without network, its commit recorded; `steb list-models` says where each commit comes from. A pinned
fetch the hub answers with another commit, or with other files than the lock recorded, is refused and leaves nothing."""
import json, os, subprocess, sys
from pathlib import Path
import pytest

sys.path.insert(0, str(Path(__file__).parents[1]))   # the helpers in tests/
from hub_replicas import CODE_REPOSITORIES, LAYOUTS, build_replica, code_repository  # noqa: E402
from loopback_internet import HubRepo, LoopbackInternet  # noqa: E402
from steb_lib.data.sources import fixtures_dir  # noqa: E402
from steb_lib.models.registry import load_model_registry  # noqa: E402

REGISTRY = load_model_registry()
HUB_ENTRIES = sorted(s.name for s in REGISTRY.values() if s.hub_id)


def steb(*args, env):
    return subprocess.run([str(Path(sys.executable).parent/"steb"), *args], capture_output=True, text=True, env=env)


def test_every_registry_entry_with_a_hub_id_has_a_replica():
    "A new registry entry without a replica (or a replica of an entry that left) fails here."
    assert sorted(LAYOUTS) == HUB_ENTRIES
    assert all(layout.source for layout in LAYOUTS.values())


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    root = tmp_path_factory.mktemp("replicas")
    with LoopbackInternet() as site:
        for name in HUB_ENTRIES:
            spec, layout = REGISTRY[name], LAYOUTS[name]
            site.add_hub_repo(HubRepo(spec.hub_id, build_replica(name, layout, root), commit=spec.revision))
            if layout.adapter_base and ("model", layout.adapter_base) not in site.hub:
                site.add_hub_repo(HubRepo(layout.adapter_base, root/"adapter-base"))
        for repo, (commit, _, _) in CODE_REPOSITORIES.items():
            site.add_hub_repo(HubRepo(repo, code_repository(repo, root), commit=commit))
        yield site


@pytest.fixture
def online(hub, tmp_path):
    "A user with network (the loopback one): empty hub, module and steb caches; the datasets from the fixtures."
    return {**os.environ, "HF_HUB_OFFLINE": "0", "TRANSFORMERS_OFFLINE": "0", "HF_ENDPOINT": hub.base, "HF_HOME": str(tmp_path/"hf"),
            "HF_HUB_CACHE": str(tmp_path/"hub"), "STEB_CACHE": str(tmp_path/"cache"), "STEB_RAW_DIR": str(fixtures_dir()),
            "HF_HUB_DISABLE_TELEMETRY": "1"}


def test_every_entry_loads_by_its_registry_name_then_runs_offline(hub, online, tmp_path):
    r = steb("fetch", "--dataset", "core", "--models", *HUB_ENTRIES, "--record", str(tmp_path/"rows.json"), env=online)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    rows = {x["name"]: x for x in json.loads((tmp_path/"rows.json").read_text()) if x["what"] == "model"}
    assert sorted(rows) == HUB_ENTRIES and {x["status"] for x in rows.values()} <= {"downloaded", "ready"}, rows
    served = {name: hub.hub[("model", REGISTRY[name].hub_id)].commit for name in HUB_ENTRIES}
    lock = json.loads((tmp_path/"cache"/"models.lock").read_text())
    unpinned = {name for name in HUB_ENTRIES if not REGISTRY[name].revision and not LAYOUTS[name].packaged}
    assert {h: p["commit"] for h, p in lock["pins"].items()} == {REGISTRY[n].hub_id: served[n] for n in unpinned}, lock["pins"]
    fetched = {k.split("@")[0] for k in lock["files"]}
    assert {REGISTRY[n].hub_id for n in HUB_ENTRIES if not LAYOUTS[n].packaged} <= fetched, fetched
    assert set(CODE_REPOSITORIES) <= fetched   # the remote code, at its pinned commit, fetched and recorded with the models
    adapter = [n for n in HUB_ENTRIES if LAYOUTS[n].adapter_base]
    for name in adapter:   # an adapter-only repository: no config.json of its own; the base it names is fetched too
        base = LAYOUTS[name].adapter_base.replace("/", "--")
        assert list((tmp_path/"hub").glob(f"models--{base}/snapshots/*/config.json")), f"{name}'s base was not fetched"
        assert not list((tmp_path/"hub").glob(f"models--{REGISTRY[name].hub_id.replace('/', '--')}/snapshots/*/config.json"))

    offline = {**online, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    before = len(hub.requests)
    r = steb("evaluate", *HUB_ENTRIES, "--dataset", "core", "--task", "clustering", "--correct", "seeded-selection",
             "--results-dir", str(tmp_path/"r"), env=offline)   # inline: one process, the libraries loaded once
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert len(hub.requests) == before   # no network at all
    for name in HUB_ENTRIES:
        [path] = (tmp_path/"r").glob(f"{name.replace('/', '__')}/core/clustering.json")
        res = json.loads(path.read_text())
        assert res["model_hub_id"] == REGISTRY[name].hub_id, (name, res["model_hub_id"])
        if not LAYOUTS[name].packaged: assert res["model_revision"] == served[name], (name, res["model_revision"])
        if name in unpinned: assert "pinned by your models.lock" in res["model_source"], res["model_source"]
        if LAYOUTS[name].adapter_base: assert res["model_adapter_base"] == LAYOUTS[name].adapter_base, res
        if LAYOUTS[name].code:
            assert res["model_code_revision"] == CODE_REPOSITORIES[LAYOUTS[name].code][0], res
    listed = steb("list-models", env=offline).stdout
    for name in unpinned:
        line = next(x for x in listed.splitlines() if x.startswith(name + " "))
        assert f"pinned by your models.lock: {served[name][:10]}" in line, line


def test_a_pinned_fetch_answered_with_another_commit_is_refused_and_leaves_nothing(hub, online, tmp_path):
    repo = hub.hub[("model", "FacebookAI/roberta-base")]
    pinned, other = repo.commit, "e" * 40
    repo.revisions.update({pinned: other, other: other})   # the hub answers the pinned commit with another one
    try: r = steb("fetch", "--dataset", "core", "--models", "RoBERTa-base", env=online)
    finally: repo.revisions.update({pinned: pinned}); repo.revisions.pop(other)
    assert r.returncode == 1 and f"the hub answered with commit {other}, not the pinned {pinned}" in r.stdout, r.stdout
    assert not list((tmp_path/"hub").glob("models--FacebookAI--roberta-base/snapshots/*/*"))   # nothing to reuse
    assert not (tmp_path/"cache"/"models.lock").exists() or "roberta-base" not in (tmp_path/"cache"/"models.lock").read_text()


def test_a_commit_whose_files_changed_since_the_lock_recorded_them_is_refused(hub, online, tmp_path):
    r = steb("fetch", "--dataset", "core", "--models", "RoBERTa-large", env=online)
    assert r.returncode == 0, r.stdout + r.stderr
    repo = hub.hub[("model", "FacebookAI/roberta-large")]
    saved = repo.files["config.json"]
    changed = tmp_path/"config.json"; changed.write_text(saved.read_text().replace("}", ', "changed": true}', 1))
    repo.files["config.json"] = changed
    try: r = steb("fetch", "--dataset", "core", "--models", "RoBERTa-large", env={**online, "HF_HUB_CACHE": str(tmp_path/"hub2")})
    finally: repo.files["config.json"] = saved
    assert r.returncode == 1 and "config.json differ from the sha256 your models.lock recorded" in r.stdout, r.stdout
    assert not list((tmp_path/"hub2").glob("models--FacebookAI--roberta-large/snapshots/*/*"))


def test_a_lock_pin_holds_until_fetch_update_moves_it(hub, online, tmp_path):
    "An unpinned model stays at the commit its first load recorded, even when the hub's main moves; --update moves it."
    fetch = lambda *extra: steb("fetch", "--dataset", "core", "--models", "STAR", *extra, env=online)
    lock = lambda: json.loads((tmp_path/"cache"/"models.lock").read_text())["pins"]["AIDA-UPM/star"]["commit"]
    assert fetch().returncode == 0
    repo, first = hub.hub[("model", "AIDA-UPM/star")], hub.hub[("model", "AIDA-UPM/star")].commit
    moved = HubRepo("AIDA-UPM/star", repo.folder, commit="f" * 40)   # the hub's main moves on (same files, new commit)
    hub.add_hub_repo(moved); moved.revisions[first] = first
    try:
        r = fetch()
        assert r.returncode == 0 and lock() == first and "pinned by your models.lock" in r.stdout, r.stdout
        r = fetch("--update")
        assert r.returncode == 0 and lock() == "f" * 40, r.stdout + r.stderr
    finally: hub.add_hub_repo(repo)
