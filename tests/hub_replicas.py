"""Tiny replicas of the registry's hub repositories, each laid out as its real repository is (issue 75).

A replica is not a model of its *family* but of its *repository*: the same file names (config.json with the real
`architectures`, `model_type` and `auto_map`; the tokenizer files the repository ships; sentence-transformers'
`modules.json`, `1_Pooling/config.json`, `sentence_bert_config.json`, `config_sentence_transformers.json` with its
prompts; safetensors or pickled weights; remote code in another repository, served at its pinned commit), with tiny
random weights. `LAYOUTS` says for every registry entry with a hub id how its repository is laid out and where that
was learnt (`source`); where no public source shows the layout, `source` says so and what the replica assumes.
`tests/models/test_hub_replicas.py` serves them through the loopback hub and evaluates each by its registry name.
"""
from __future__ import annotations
import json
from dataclasses import dataclass, field
from pathlib import Path

# the files each tokenizer kind ships on the hub (what a replica keeps of the tiny model's tokenizer)
TOKENIZER_FILES = {
    "bert": ("vocab.txt", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"),
    "roberta": ("vocab.json", "merges.txt", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"),
    "gpt2-slow": ("vocab.json", "merges.txt", "tokenizer_config.json", "special_tokens_map.json"),   # OPT: no tokenizer.json
    "xlmr": ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"),
    "fast-only": ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"),
    "qwen": ("vocab.json", "merges.txt", "tokenizer.json", "tokenizer_config.json"),
    "spm": ("spm.model", "tokenizer_config.json"),
}


@dataclass(frozen=True)
class Layout:
    "How one hub repository is laid out (see the module's docstring)."
    tiny: str                          # the tiny model its weights come from (steb_lib.testing.tiny_models kinds, + xlmr/qwen3)
    source: str                        # where the layout was learnt (or that it was not found, and what is assumed)
    tokenizer: str | None = None       # TOKENIZER_FILES key; None: the tiny model's own files
    weights: str = "safetensors"       # safetensors | bin (pickled) | both
    config: dict = field(default_factory=dict)   # keys the real config.json has (model_type, architectures, auto_map)
    st: dict | None = None             # sentence-transformers: {"pooling": mode, "normalize": bool, "prompts": {...}, "max_seq_length": n}
    code: str | None = None            # remote code the config points at: a key of CODE_REPOSITORIES
    own_code: tuple = ()               # (config module, model module) file names of code in the repository itself (LUAR)
    adapter_base: str | None = None    # adapter-only repository: the hub id of its base
    packaged: str | None = None        # served from the packaged copy itself (real files), not a tiny model


_TINY_ST = "sentence-transformers repository: modules.json, 1_Pooling, sentence_bert_config.json"
LAYOUTS: dict[str, Layout] = {
    # style models
    "LUAR-MUD": Layout("luar", "model card (AutoModel/AutoTokenizer from the repository, trust_remote_code); config.py "
                       "(LUARConfig, model_type LUAR: public copies) and model.py beside config.json; safetensors weights (public code loads f1db5025 with "
                       "use_safetensors=True, and copies tokenizer.json, tokenizer_config.json and special_tokens_map.json "
                       "from its snapshot)",
                       tokenizer="roberta", own_code=("config", "model")),
    "LUAR-CRUD": Layout("luar", "as LUAR-MUD; its 2023-10-09 commits upload the weights ('Upload LUAR') then the tokenizer "
                        "(registry note); pickled weights (MODEL-PINS: the CRUD pin may hold pytorch_model.bin only)",
                        tokenizer="roberta", own_code=("config", "model"), weights="bin"),
    "LUSR": Layout("bert", "not found in public sources: assumed a plain transformers checkpoint (upstream loads it with "
                   "AutoModel and mean pooling)"),
    "StyleDistance": Layout("roberta", f"model card: a {_TINY_ST} over roberta-base, mean pooling; safetensors",
                            tokenizer="roberta", st={"pooling": "mean", "max_seq_length": 512}),
    "StyleDistance-synthetic": Layout("roberta", "not found in public sources: assumed laid out as StyleDistance",
                                      tokenizer="roberta", st={"pooling": "mean", "max_seq_length": 512}),
    "mStyleDistance": Layout("xlmr", f"model card: a {_TINY_ST} over xlm-roberta-base, mean pooling; the tokenizer as "
                             "tokenizer.json (its sentencepiece.bpe.model is left out: the fast tokenizer loads without it)",
                             tokenizer="xlmr", config={"model_type": "xlm-roberta", "architectures": ["XLMRobertaModel"]},
                             st={"pooling": "mean", "max_seq_length": 512}),
    "MSR": Layout("xlmr", "a plain transformers checkpoint over XLM-RoBERTa (upstream: AutoModel, mean pooling); the "
                  "repository's file list was not found: assumed", tokenizer="xlmr",
                  config={"model_type": "xlm-roberta", "architectures": ["XLMRobertaModel"]}),
    "MSR-Llama-3.2": Layout("qwen2", "adapter-only sentence-transformers repository (modules.json, adapter_config.json, "
                            "adapter_model.safetensors; no config.json), as upstream loads it with peft; its base was not "
                            "found: assumed meta-llama/Llama-3.2-1B (served as a tiny stand-in)",
                            adapter_base="meta-llama/Llama-3.2-1B"),
    "CISR": Layout("roberta", f"model card and MODEL-PINS: a {_TINY_ST} over roberta-base, mean pooling; pickled weights "
                   "(pytorch_model.bin, 498,669,047 bytes at the pin)", tokenizer="roberta", weights="bin",
                   st={"pooling": "mean", "max_seq_length": 512}),
    "STAR": Layout("roberta", "not found in public sources: assumed a RoBERTa-large checkpoint with its own tokenizer files "
                   "(several projects load STAR's tokenizer from roberta-large: if the repository ships none, steb-lib's "
                   "load fails there and the entry needs a tokenizer of its own)", tokenizer="roberta"),
    "STAR2": Layout("modernbert", "not found in public sources: assumed a ModernBERT checkpoint with tokenizer.json",
                    tokenizer="fast-only"),
    "SAURON": Layout("roberta", f"not found in public sources: assumed a {_TINY_ST} over RoBERTa, mean pooling (its "
                     "registry note)", tokenizer="roberta", st={"pooling": "mean", "max_seq_length": 512}),
    # semantic models
    "sentence-transformers/all-mpnet-base-v2": Layout(
        "bert", "the packaged copy itself: its files are the hub's at the pinned e8c3b32 (same sha256, README aside); "
        "MPNetForMaskedLM config, vocab.txt and tokenizer.json, mean pooling and Normalize, max_seq_length 384",
        packaged="all-mpnet-base-v2"),
    "sentence-transformers/all-MiniLM-L6-v2": Layout("bert", "the packaged copy itself (the hub's files at c9745ed1)",
                                                     packaged="all-MiniLM-L6-v2"),
    "GTE-base-en-v1.5": Layout(
        "bert", "MTEB and model card: config.json model_type 'new', architectures NewModel, auto_map into "
        "Alibaba-NLP/new-impl (configuration.NewConfig, modeling.NewModel); CLS pooling; BERT tokenizer", tokenizer="bert",
        code="Alibaba-NLP/new-impl", st={"pooling": "cls", "max_seq_length": 8192}),
    "GTE-large-en-v1.5": Layout("bert", "as GTE-base-en-v1.5", tokenizer="bert", code="Alibaba-NLP/new-impl",
                                st={"pooling": "cls", "max_seq_length": 8192}),
    "E5-base-v2": Layout("bert", f"model card: a {_TINY_ST} over BertModel, mean pooling and Normalize; the 'query: ' "
                         "prefix is the registry's prompt", tokenizer="bert", config={"architectures": ["BertModel"]},
                         st={"pooling": "mean", "normalize": True, "max_seq_length": 512}),
    "E5-large-v2": Layout("bert", "as E5-base-v2", tokenizer="bert", config={"architectures": ["BertModel"]},
                          st={"pooling": "mean", "normalize": True, "max_seq_length": 512}),
    "BGE-base-en-v1.5": Layout("bert", f"model card: a {_TINY_ST} over BertModel, CLS pooling and Normalize",
                               tokenizer="bert", config={"architectures": ["BertModel"]},
                               st={"pooling": "cls", "normalize": True, "max_seq_length": 512}),
    "BGE-large-en-v1.5": Layout("bert", "as BGE-base-en-v1.5", tokenizer="bert", config={"architectures": ["BertModel"]},
                                st={"pooling": "cls", "normalize": True, "max_seq_length": 512}),
    "Jina-Embeddings-v3": Layout(
        "xlmr", "model card and MTEB: config.json model_type xlm-roberta with auto_map into "
        "jinaai/xlm-roberta-flash-implementation (configuration_xlm_roberta.XLMRobertaFlashConfig, "
        "modeling_lora.XLMRobertaLoRA); modules.json's first module custom_st.Transformer (custom_st.py in the "
        "repository), mean pooling, Normalize; task prompts in config_sentence_transformers.json", tokenizer="xlmr",
        config={"model_type": "xlm-roberta", "architectures": ["XLMRobertaModel"]}, code="jinaai/xlm-roberta-flash-implementation",
        st={"pooling": "mean", "normalize": True, "max_seq_length": 8194, "custom": True,
            "prompts": {"retrieval.query": "Represent the query for retrieving evidence documents: ", "text-matching": ""}}),
    "Qwen3-Embedding-8B": Layout(
        "qwen3", "model card and MTEB: a sentence-transformers repository over Qwen3 (config architectures "
        "Qwen3ForCausalLM, model_type qwen3), last-token pooling and Normalize, an instruction prompt for queries, "
        "the tokenizer padding on the left", tokenizer="qwen",
        st={"pooling": "lasttoken", "normalize": True, "max_seq_length": 32768, "padding_side": "left",
            "prompts": {"query": "Instruct: Given a web search query, retrieve relevant passages that answer the query\nQuery:",
                        "document": ""}}),
    # masked LMs
    "BERT-large-cased": Layout("bert", "the transformers checkpoint layout: BertForMaskedLM, vocab.txt and tokenizer.json",
                               tokenizer="bert"),
    "BERT-large-uncased": Layout("bert", "as BERT-large-cased", tokenizer="bert"),
    "RoBERTa-base": Layout("roberta", "RobertaForMaskedLM; vocab.json, merges.txt, tokenizer.json; safetensors and pickled "
                           "weights side by side (only one format is fetched)", tokenizer="roberta", weights="both"),
    "RoBERTa-large": Layout("roberta", "as RoBERTa-base", tokenizer="roberta", weights="both"),
    "DeBERTa-v3-base": Layout("deberta", "DebertaV2ForMaskedLM; spm.model and tokenizer_config.json, no tokenizer.json; "
                              "pickled weights (pytorch_model.bin)", tokenizer="spm", weights="bin"),
    "DeBERTa-v3-large": Layout("deberta", "as DeBERTa-v3-base", tokenizer="spm", weights="bin"),
    "ModernBERT-base": Layout("modernbert", "ModernBertForMaskedLM; tokenizer.json only; safetensors", tokenizer="fast-only"),
    "ModernBERT-large": Layout("modernbert", "as ModernBERT-base", tokenizer="fast-only"),
    # causal LMs
    "GPT-2-XL": Layout("gpt2", "GPT2LMHeadModel; vocab.json, merges.txt, tokenizer.json; model.safetensors (sha256 in "
                       "MODEL-PINS) beside pytorch_model.bin", tokenizer="roberta", weights="both"),
    "OPT-1.3B": Layout("opt", "OPTForCausalLM; the GPT-2 tokenizer as vocab.json and merges.txt (no tokenizer.json); "
                       "pickled weights only at the 2023-09 pin", tokenizer="gpt2-slow", weights="bin"),
    "Qwen2-0.5B": Layout("qwen2", "Qwen2ForCausalLM; vocab.json, merges.txt, tokenizer.json; safetensors", tokenizer="qwen"),
    "Qwen3-0.6B-Base": Layout("qwen3", "Qwen3ForCausalLM; vocab.json, merges.txt, tokenizer.json; safetensors",
                              tokenizer="qwen"),
    "Qwen3.5-0.8B-Base": Layout("qwen3_5", "Qwen3_5ForConditionalGeneration (config qwen3_5, a text and a vision "
                                "config); tokenizer.json; safetensors", tokenizer="qwen"),
    "Qwen3.5-2B-Base": Layout("qwen3_5", "as Qwen3.5-0.8B-Base", tokenizer="qwen"),
    "Qwen3.5-4B-Base": Layout("qwen3_5", "as Qwen3.5-0.8B-Base", tokenizer="qwen"),
}

# remote code in another repository: (commit served, {file: code}); tiny stand-ins of the real classes' names
CODE_REPOSITORIES = {
    "Alibaba-NLP/new-impl": ("40ced75c3017eb27626c9d4ea981bde21a2662f4", {
        "configuration.py": "from transformers import BertConfig\n\nclass NewConfig(BertConfig):\n    model_type = 'new'\n",
        "modeling.py": "from transformers import BertModel\nfrom .configuration import NewConfig\n\n"
                       "class NewModel(BertModel):\n    config_class = NewConfig\n",
    }, {"AutoConfig": "configuration.NewConfig", "AutoModel": "modeling.NewModel"}),
    "jinaai/xlm-roberta-flash-implementation": ("845308d0fd72a8406a3e378450e1a09522790419", {
        "configuration_xlm_roberta.py": "from transformers import XLMRobertaConfig\n\n"
                                        "class XLMRobertaFlashConfig(XLMRobertaConfig):\n    pass\n",
        "modeling_lora.py": "from transformers import XLMRobertaModel\n"
                            "from .configuration_xlm_roberta import XLMRobertaFlashConfig\n\n"
                            "class XLMRobertaLoRA(XLMRobertaModel):\n    config_class = XLMRobertaFlashConfig\n",
    }, {"AutoConfig": "configuration_xlm_roberta.XLMRobertaFlashConfig", "AutoModel": "modeling_lora.XLMRobertaLoRA"}),
}

CUSTOM_ST = "from sentence_transformers.models import Transformer as _Transformer\n\n\nclass Transformer(_Transformer):\n    pass\n"


def _tiny(kind: str, dest: Path) -> Path:
    "A tiny model of `kind`: the library's tiny kinds, and the two only replicas need (xlmr, qwen3)."
    from steb_lib.testing.tiny_models import make_tiny_model
    if kind == "xlmr": return _tiny_xlmr(dest)
    if kind == "qwen3": return _tiny_qwen3(dest)
    return make_tiny_model(kind, dest)


def _tiny_xlmr(dest: Path) -> Path:
    "XLM-RoBERTa: a Unigram (SentencePiece-style) tokenizer.json, as its repositories ship, and an XLM-R config."
    import torch, transformers as tf
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers
    from steb_lib.testing.tiny_models import example_corpus
    torch.manual_seed(0)
    tok = Tokenizer(models.Unigram()); tok.pre_tokenizer = pre_tokenizers.Metaspace(); tok.decoder = decoders.Metaspace()
    specials = ["<s>", "<pad>", "</s>", "<unk>", "<mask>"]
    tok.train_from_iterator(example_corpus(), trainers.UnigramTrainer(vocab_size=600, special_tokens=specials, unk_token="<unk>"))
    tok.post_processor = processors.RobertaProcessing(("</s>", 2), ("<s>", 0))
    tok = tf.XLMRobertaTokenizer(tokenizer_object=tok, model_max_length=64)
    config = tf.XLMRobertaConfig(vocab_size=len(tok), hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64,
                                 max_position_embeddings=66, pad_token_id=1, bos_token_id=0, eos_token_id=2)
    tf.XLMRobertaForMaskedLM(config).save_pretrained(dest); tok.save_pretrained(dest)
    return dest


def _tiny_qwen3(dest: Path) -> Path:
    import torch, transformers as tf
    from steb_lib.testing.tiny_models import _hf_tokenizer
    torch.manual_seed(0)
    tok = _hf_tokenizer("qwen2", 64)
    config = tf.Qwen3Config(vocab_size=len(tok), hidden_size=32, num_hidden_layers=2, num_attention_heads=2, intermediate_size=64,
                            num_key_value_heads=1, head_dim=16, max_position_embeddings=64, eos_token_id=2, pad_token_id=1)
    tf.Qwen3ForCausalLM(config).save_pretrained(dest); tok.save_pretrained(dest)
    return dest


def _st_files(dest: Path, st: dict) -> None:
    "sentence-transformers' files as its repositories hold them."
    dim = json.loads((dest/"config.json").read_text()).get("hidden_size", 32)
    modules = [{"idx": 0, "name": "0", "path": "", "type": "custom_st.Transformer" if st.get("custom") else "sentence_transformers.models.Transformer"},
               {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"}]
    if st.get("normalize"): modules.append({"idx": 2, "name": "2", "path": "2_Normalize", "type": "sentence_transformers.models.Normalize"})
    (dest/"modules.json").write_text(json.dumps(modules, indent=2))
    mode = st["pooling"]
    pooling = {"word_embedding_dimension": dim, "pooling_mode_cls_token": mode == "cls", "pooling_mode_mean_tokens": mode == "mean",
               "pooling_mode_max_tokens": False, "pooling_mode_mean_sqrt_len_tokens": False,
               "pooling_mode_weightedmean_tokens": False, "pooling_mode_lasttoken": mode == "lasttoken", "include_prompt": True}
    (dest/"1_Pooling").mkdir(exist_ok=True); (dest/"1_Pooling"/"config.json").write_text(json.dumps(pooling, indent=2))
    (dest/"sentence_bert_config.json").write_text(json.dumps({"max_seq_length": st["max_seq_length"], "do_lower_case": False}))
    meta = {"__version__": {"sentence_transformers": "3.0.0"}, "prompts": st.get("prompts", {}), "default_prompt_name": None,
            "similarity_fn_name": "cosine"}
    (dest/"config_sentence_transformers.json").write_text(json.dumps(meta, indent=2))
    if st.get("custom"): (dest/"custom_st.py").write_text(CUSTOM_ST)
    if st.get("padding_side"):
        tok = json.loads((dest/"tokenizer_config.json").read_text())
        (dest/"tokenizer_config.json").write_text(json.dumps({**tok, "padding_side": st["padding_side"]}))


def _weights(dest: Path, how: str) -> None:
    "Keep the weights as the repository holds them: safetensors, pickled (pytorch_model.bin) or both."
    if how == "safetensors": return
    import torch
    from safetensors.torch import load_file
    torch.save(load_file(dest/"model.safetensors"), dest/"pytorch_model.bin")
    if how == "bin": (dest/"model.safetensors").unlink()


def build_replica(name: str, layout: Layout, root: Path) -> Path:
    "The replica of registry entry `name` in `root/<name>`."
    dest = root/name.replace("/", "--")
    if layout.packaged:
        from steb_lib.models.registry import resolve_model
        from steb_lib.models.files import packaged_model_dir
        return packaged_model_dir(resolve_model(layout.packaged))
    if layout.adapter_base:
        from steb_lib.testing.tiny_models import make_tiny_adapter
        return make_tiny_adapter(dest, _tiny(layout.tiny, root/"adapter-base"), layout.adapter_base)
    _tiny(layout.tiny, dest)
    if layout.tokenizer:
        keep = set(TOKENIZER_FILES[layout.tokenizer])
        if "merges.txt" in keep and not (dest/"merges.txt").exists():   # the BPE files beside tokenizer.json
            from tokenizers import Tokenizer
            Tokenizer.from_file(str(dest/"tokenizer.json")).model.save(str(dest))
        for f in ("vocab.txt", "vocab.json", "merges.txt", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "spm.model"):
            if f not in keep: (dest/f).unlink(missing_ok=True)
    if layout.tokenizer == "gpt2-slow":   # OPT: its tokenizer_config names the slow GPT-2 tokenizer of vocab.json and merges.txt
        (dest/"tokenizer_config.json").write_text(json.dumps({"tokenizer_class": "GPT2Tokenizer", "model_max_length": 64, "bos_token": "</s>",
                                                              "eos_token": "</s>", "unk_token": "<unk>", "pad_token": "<pad>"}))
    config = json.loads((dest/"config.json").read_text()) | layout.config
    if layout.code:
        commit, _, auto_map = CODE_REPOSITORIES[layout.code]
        config["auto_map"] = {k: f"{layout.code}--{v}" for k, v in auto_map.items()}
        if layout.code == "Alibaba-NLP/new-impl": config |= {"model_type": "new", "architectures": ["NewModel"]}
    if layout.own_code:
        cfg, mod = layout.own_code
        # the real config class says model_type "LUAR" (public copies of its config.py; its model.py imports it)
        (dest/f"{cfg}.py").write_text((dest/"configuration_luar.py").read_text().replace('"luar-tiny"', '"LUAR"'))
        (dest/"configuration_luar.py").unlink()
        (dest/f"{mod}.py").write_text((dest/"modeling_luar.py").read_text().replace(".configuration_luar", f".{cfg}"))
        (dest/"modeling_luar.py").unlink()
        config |= {"model_type": "LUAR", "architectures": ["LUAR"],
                   "auto_map": {"AutoConfig": f"{cfg}.LUARConfig", "AutoModel": f"{mod}.LUAR"}}
    (dest/"config.json").write_text(json.dumps(config, indent=2))
    if layout.st: _st_files(dest, layout.st)
    _weights(dest, layout.weights)
    return dest


def code_repository(repo: str, root: Path) -> Path:
    "The folder of a remote-code repository's replica."
    dest = root/("code--" + repo.replace("/", "--")); dest.mkdir(parents=True, exist_ok=True)
    for f, text in CODE_REPOSITORIES[repo][1].items(): (dest/f).write_text(text)
    (dest/"README.md").write_text(f"tiny stand-in of {repo}'s code: the class names its users' auto_map points at\n")
    return dest
