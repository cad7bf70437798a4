"""Paper parity (issue 29), through the `steb` console script on STEB-lite's shipped samples.

The expected numbers are not steb-lib's own: they are the released STEB code's outputs, measured by re-implementing
its route and metrics outside this project on the same samples (`../shared/UPSTREAM-PARITY.md` §1.1 and §1.4, read
at rrivera1849/STEB commits f56418d, 8a03640 and 4a648c5). The `paper` profile must give them; `corrected` must give
steb-lib's numbers from before profiles existed (the same document's steb-lib columns)."""
import json, os, subprocess, sys
from pathlib import Path

import pytest

from steb_lib.verify import AUROC, TOLERANCES, tolerance_of

STEB = [str(Path(sys.executable).parent / "steb")]
MINILM = "sentence-transformers/all-MiniLM-L6-v2"
ENV = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
ENV.pop("STEB_RAW_DIR", None)   # the shipped STEB-lite samples, as on a fresh machine


def steb(*args, cwd=None, **env):
    return subprocess.run(STEB + list(args), env={**ENV, **env}, capture_output=True, text=True, cwd=cwd)


def evaluate(tmp, dataset, task, *options, store="r"):
    r = steb("evaluate", MINILM, "--dataset", dataset, "--task", task, "--results-dir", str(tmp / store),
             "--cache-dir", str(tmp / "cache"), *options)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(next((tmp / store).glob(f"*/{dataset}/{task}.json")).read_text())


# UPSTREAM-PARITY measured the released route and metrics on steb-lib's samples (its seeded draw, OneStop's sentence
# triples): those two selection corrections reproduce the samples; the paper profile proper selects as released
# (tests/test_selection_parity.py)
SAME_SAMPLES = ("--correct", "onestop-sentences,seeded-selection")
SAMPLES_PROFILE = "paper+onestop-sentences,seeded-selection"


@pytest.fixture(scope="module")
def tmp(tmp_path_factory):
    return tmp_path_factory.mktemp("parity")


# UPSTREAM-PARITY §1.1, last column: the released HFModel route (AutoModel mean pooling, unnormalised, 512-token
# spaCy chunks) on steb-lib's samples, k-means seed 42. steb-lib's own pipeline: the "steb-lib" column.
@pytest.mark.parametrize("dataset,released,own", [("hate_speech", 0.0848, 0.1205),
                                                  ("hate_speech_and_offensive_language", 0.0129, 0.1515)])
def test_clustering_follows_the_released_embedding_route(tmp, dataset, released, own):
    paper = evaluate(tmp, dataset, "clustering", *SAME_SAMPLES, store="rs")     # steb-lib's samples, as measured
    assert (paper["profile"], paper["model_route"], paper["model_family"]) == (SAMPLES_PROFILE, "hf-route", "sentence-transformers")
    assert abs(paper["main_score"] - released) < 5e-4, paper["main_score"]
    if dataset == "hate_speech":   # the paper profile proper, the released selection too (once: it is no dataset's)
        pure = evaluate(tmp, dataset, "clustering")
        assert (pure["profile"], pure["corrections"]) == ("paper", []) and pure["data_selection"].startswith("the first N records")
    corrected = evaluate(tmp, dataset, "clustering", "--profile", "corrected", store="rc")
    assert corrected["model_route"] == "own" and abs(corrected["main_score"] - own) < 5e-4, corrected["main_score"]


# UPSTREAM-PARITY §1.4: the released OrderAlignmentTask on the same embedding matrix (steb-lib's own vectors, so the
# route corrections are on) -> acc_mean / distractor_acc_mean; and steb-lib's metric on it.
@pytest.mark.parametrize("dataset,released,own", [("STEL_feature", (0.8791, 0.0099), (0.8658, 0.0140)),
                                                  ("OneStopEnglishCorpus", (0.5067, 0.2012), (0.3737, 0.2560))])
def test_order_alignment_follows_the_released_procedure(tmp, dataset, released, own):
    metric_only = evaluate(tmp, dataset, "order_alignment", "--correct", "st-pipeline,exact-chunks," + SAME_SAMPLES[1], store="rm")
    assert metric_only["profile"] == "paper+exact-chunks,onestop-sentences,seeded-selection,st-pipeline"
    # the released numbers are printed to 4 digits; OneStopEnglish's repeated sentences leave ~1,700 decisions won by
    # less than 1e-6, which other kernels may turn (issue 58's route moved its accuracy by 1.2e-3): there the bound is
    # the declared tolerance of order alignment (one decision per near tie, `72_verify`)
    bound = lambda r: max(1e-4, tolerance_of(r)[0])   # noqa: E731
    got = (metric_only["metrics"]["accuracy"], metric_only["metrics"]["distractor_accuracy"])
    assert all(abs(g - w) < bound(metric_only) for g, w in zip(got, released)), got
    corrected = evaluate(tmp, dataset, "order_alignment", "--profile", "corrected", store="rc")
    got = (corrected["metrics"]["accuracy"], corrected["metrics"]["distractor_accuracy"])
    assert all(abs(g - w) < bound(corrected) for g, w in zip(got, own)), got
    paper = evaluate(tmp, dataset, "order_alignment", *SAME_SAMPLES, store="rs")   # the released route too: the same
    assert abs(paper["metrics"]["accuracy"] - released[0]) < max(1e-3, bound(paper)) and paper["profile"] == SAMPLES_PROFILE


def test_a_store_holds_one_profile_and_the_table_says_which(tmp):
    r = steb("evaluate", MINILM, "--dataset", "hate_speech", "--task", "clustering", "--results-dir", str(tmp / "r"),
             "--cache-dir", str(tmp / "cache"), "--profile", "corrected")
    assert r.returncode == 2 and "holds results of profile paper" in r.stderr and "Traceback" not in r.stderr
    r = steb("evaluate", MINILM, "--dataset", "hate_speech", "--task", "clustering", "--results-dir", str(tmp / "r"),
             "--correct", "no-such-fix")
    assert r.returncode == 2 and "unknown correction no-such-fix" in r.stderr
    assert json.loads((tmp / "r" / ".steb-profile").read_text()) == {"corrections": [], "profile": "paper"}
    assert steb("table", "--results-dir", str(tmp / "r")).stdout.startswith("profile: paper")
    listed = steb("corrections").stdout
    for name in ("st-pipeline", "true-last-token", "exact-chunks", "oa-no-clip", "oa-both-directions",
                 "retrieval-keep-target-only", "seeded-selection", "onestop-sentences"):
        assert name in listed


def target_only_authors_file(tmp_path):
    "Three authors with queries and targets, and `dee`, a target author with no query."
    data = tmp_path / "authors.jsonl"
    rows = [{"text": f"{a} wrote note {i} on {s}", "author": a, "side": s}
            for a in ("ann", "bob", "cy") for s in ("query", "target") for i in range(2)]
    rows += [{"text": f"dee wrote note {i}", "author": "dee", "side": "target"} for i in range(2)]
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return data


def test_target_only_authors_leave_retrieval_in_the_paper_profile(tmp_path):
    data = target_only_authors_file(tmp_path)
    counts = {}
    for profile in ("paper", "corrected"):
        r = steb("evaluate", "random", "--task", "retrieval", "--data-file", str(data), "--profile", profile,
                 "--results-dir", str(tmp_path / profile), "--cache-dir", str(tmp_path / "cache"))
        assert r.returncode == 0, r.stderr
        counts[profile] = json.loads((tmp_path / profile / "random" / "authors" / "retrieval.json").read_text())
    assert (counts["paper"]["metrics"]["n_targets"], counts["corrected"]["metrics"]["n_targets"]) == (3, 4)


def test_multi_vector_retrieval_drops_target_only_authors_in_the_paper_profile(tmp_path):
    "MaxSim scoring reads the model's own token vectors, but its retrieval targets follow the profile too."
    data = target_only_authors_file(tmp_path)
    targets = {}
    for profile in ("paper", "corrected"):
        r = steb("evaluate", MINILM, "--task", "retrieval", "--data-file", str(data), "--scoring", "maxsim", "--profile",
                 profile, "--results-dir", str(tmp_path / profile), "--cache-dir", str(tmp_path / "cache"))
        assert r.returncode == 0, r.stderr[-2000:]
        result = json.loads(next((tmp_path / profile).glob("*/authors/retrieval.json")).read_text())
        targets[profile] = (result["scoring"], result["metrics"]["n_targets"])
    assert targets["paper"][0] == "maxsim" and targets["paper"][1] < targets["corrected"][1], targets


def test_duplicates_in_a_data_file_are_warned_about(tmp_path):
    data = tmp_path / "twice.jsonl"
    data.write_text("".join(json.dumps({"text": t, "label": l}) + "\n" for t, l in [("a", "x"), ("b", "y"), ("c", "x")] * 2))
    r = steb("evaluate", "random", "--task", "all_to_all", "--data-file", str(data), "--results-dir", str(tmp_path / "r"),
             "--cache-dir", str(tmp_path / "c"))
    assert r.returncode == 0, r.stderr
    assert f"steb: warning: {data}: 3 exact duplicate records dropped (the first copy of each kept)" in r.stderr
    assert json.loads((tmp_path / "r" / "random" / "twice" / "all_to_all.json").read_text())["n_duplicate_records_dropped"] == 3


ROOT = Path(__file__).resolve().parents[1]
PRE_PROFILE = json.loads((ROOT / "tests" / "data" / "pre_profile_lite_scores.json").read_text())["main_score"]
# fixed in both profiles since: STEL_register's simplicity pairs were misparsed; LFTK's unique-word counts of the
# probing features were 0 or 1 (no lemmatizer)
BUG_FIXED = ("/STEL_register/", "/mini_probing/probing")


def bug_fixed(key: str) -> bool:
    return any(b in key for b in BUG_FIXED)


@pytest.mark.parametrize("model", ["function-words", "random"])
def test_the_corrected_profile_reproduces_the_results_from_before_profiles(tmp_path, model):
    # numbers made before the kernels were pinned (issue 42): numpy's BLAS on its native kernels and two threads, on the
    # machine of then. Native kernels are the CPU's own (this project's VMs have reported Zen 4 and a generic "AMD EPYC"
    # on which OpenBLAS picks Haswell's): there an all-to-all AUROC moves in its 9th digit (function-words, 4e-9), so
    # AUROCs are held to the tolerance `steb verify` declares for them, everything else exactly
    r = steb("evaluate", model, "--suite", "lite", "--profile", "corrected", "--results-dir", str(tmp_path / "r"),
             "--cache-dir", str(tmp_path / "cache"), "--native-kernels", OPENBLAS_NUM_THREADS="2")
    assert r.returncode == 0 and ", 0 failed" in r.stdout, r.stderr[-2000:]
    got = {f"{model}/{p.parent.name}/{p.stem}": json.loads(p.read_text())["main_score"] for p in (tmp_path / "r" / model).glob("*/*.json")}
    want = {k: v for k, v in PRE_PROFILE.items() if k.startswith(model + "/")}
    assert set(got) == set(want) and len(got) >= 14
    auroc = lambda k: TOLERANCES.get(k.rsplit("/", 1)[1]) is AUROC   # the tasks steb verify holds to it
    moved = {k: v for k, v in got.items() if v != want[k] and not (auroc(k) and abs(v - want[k]) <= AUROC.bound({}))}
    assert moved == {k: got[k] for k in got if bug_fixed(k)}


def test_the_committed_corrected_variant_is_the_pre_profile_protocol():
    "Every default model's committed `corrected` result (the parity notebook's) against the results of before profiles."
    store = ROOT / "data" / "results" / "lite-parity" / "corrected"
    got, bounds = {}, {}
    for p in store.glob("*/*/*.json"):
        r = json.loads(p.read_text())
        got[f"{r['model']}/{r['dataset']}/{r['task']}"] = r["main_score"]
        bounds[f"{r['model']}/{r['dataset']}/{r['task']}"] = tolerance_of(r)[0]
    assert len(got) >= 60
    # stylometric is left out: before profiles its LFTK features depended on a text's place in a batch (LFTK's
    # readability formulas leaked their options into the next document; nbs/lib/06_text_features), which is fixed,
    # so its vectors changed
    # styledistance-mini was retrained with the kernels pinned (issue 42): its weights changed, and a k-means that one
    # changed assignment sends another way moved (eWAVE clustering 0.313 -> 0.308); its other results within 1e-6
    # issue 58's kernels (torch's products by OpenBLAS) moved OneStopEnglish's order alignment, whose near ties other
    # kernels may turn, by up to 1e-4: order alignment is held to its declared tolerance (`72_verify`)
    allowed = lambda k: (1e-2 if k.startswith("styledistance-mini/") and k.endswith("/clustering")   # noqa: E731
                         else bounds[k] if k.endswith("/order_alignment") else 1e-6)
    moved = {k: (v, PRE_PROFILE[k]) for k, v in got.items()
             if not bug_fixed(k) and not k.startswith("stylometric/") and abs(v - PRE_PROFILE[k]) > allowed(k)}
    assert moved == {} and len({k.split("/")[0] for k in got}) == 8, moved


def released_probe_reimplemented(X, values, seed):
    """UPSTREAM-PARITY §1.6's released probe, written from its description: the split script's rule (pd.qcut into 5
    bins, N = smallest bin, a shuffled choice of N per bin, 80% / 10% / the rest; the global generator, unseeded
    there, is a RandomState(seed) here, walked in label order) and probing.py's Linear -> sigmoid -> cross-entropy,
    Adam(lr 0.01, weight_decay), batches of 512, <= 200 epochs, a cumulative count of non-improving epochs that
    stops past 5, the best weight decay by validation accuracy (first on ties), its best epoch's test accuracy."""
    import numpy as np, pandas as pd, torch
    keep = [i for i, v in enumerate(values) if v is not None]   # a text without a value: no label (qcut's NaN)
    X, values = np.asarray(X)[keep], [values[i] for i in keep]
    labels = pd.qcut(values, 5, labels=False, duplicates="drop"); rs = np.random.RandomState(seed)
    # an empty bin between two edges leaves a gap in qcut's numbers (0, 2, 3), on which the released layer of
    # len(np.unique(train_y)) outputs fails (target out of bounds); numbered without gaps here, as in steb-lib
    labels = np.unique(labels, return_inverse=True)[1]
    split = np.array([None] * len(values)); counts = pd.Series(labels).value_counts().sort_index()
    n = min(int(counts.min()), 38_400 // len(counts))
    for label in counts.index:
        kept = rs.choice(np.where(labels == label)[0], n, replace=False); rs.shuffle(kept)
        a, b = int(0.8 * n), int(0.8 * n) + int(0.1 * n)
        split[kept[:a]], split[kept[a:b]], split[kept[b:]] = "train", "val", "test"
    X, y = torch.FloatTensor(np.asarray(X)), torch.LongTensor(labels)
    (tr, va, te) = (torch.as_tensor(split == s) for s in ("train", "val", "test"))
    torch.manual_seed(seed); best = (float("-inf"), None)
    for wd in (1e-5, 1e-4, 1e-3, 1e-2):
        model = torch.nn.Linear(X.shape[1], len(counts)); opt = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=wd)
        best_val, state, misses = float("-inf"), None, 0
        for _ in range(200):
            for i in range(0, int(tr.sum()), 512):
                loss = torch.nn.functional.cross_entropy(torch.sigmoid(model(X[tr][i:i + 512])), y[tr][i:i + 512])
                opt.zero_grad(); loss.backward(); opt.step()
            with torch.no_grad(): val = (torch.sigmoid(model(X[va])).argmax(1) == y[va]).float().sum() / int(va.sum())
            if val > best_val: best_val, state = val.item(), {k: v.clone() for k, v in model.state_dict().items()}
            else:
                misses += 1
                if misses > 5: break
        if best_val > best[0]: best = (best_val, state)
    model.load_state_dict(best[1])
    with torch.no_grad(): return ((torch.sigmoid(model(X[te])).argmax(1) == y[te]).float().sum() / int(te.sum())).item()


def test_probing_follows_the_released_probe(tmp):
    """The paper profile's probing equals the released probe re-implemented above, feature by feature, on the same
    embeddings and the released feature set (46); `probe-exact` gives steb-lib's exact probe. (UPSTREAM-PARITY §1.6
    measured 0.3989 exact vs. 0.381 / 0.399 / 0.386 released on mini_probing's features before the lemma fix.)"""
    from steb_lib.data.samples import prepare_dataset
    from steb_lib.models.encoders import load_encoder
    paper = evaluate(tmp, "mini_probing", "probing", "--correct", "st-pipeline,exact-chunks", store="rp")
    records = prepare_dataset("mini_probing", "probing").data.records
    X = load_encoder(MINILM, profile="paper+st-pipeline,exact-chunks").encode([r["text"] for r in records])
    probed = [k.split("/", 1)[1] for k in paper["metrics"] if k.startswith("accuracy/")]
    assert len(probed) == paper["metrics"]["n_features"] >= 20
    for name in probed:
        want = released_probe_reimplemented(X, [r["features"][name] for r in records], 42)
        assert abs(paper["metrics"][f"accuracy/{name}"] - want) < 1e-6, name
    assert len(records[0]["features"]) == 46 and 0.3 < paper["main_score"] < 0.6, paper["main_score"]
    exact = evaluate(tmp, "mini_probing", "probing", "--correct", "st-pipeline,exact-chunks,probe-exact", store="rq")
    assert exact["profile"].endswith(",probe-exact,st-pipeline") and exact["main_score"] != paper["main_score"]
