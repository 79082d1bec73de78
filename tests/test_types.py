"""dkw_core/types.py: the one protocol table, and the default protocol of every path a new text
takes (label-free-top1; corpus documents keep the paper's label-aware)."""
import inspect

import pytest

from dkw_core.types import (
    DEFAULT_PROTOCOL,
    NEW_TEXT_PROTOCOL,
    NEW_TEXT_PROTOCOLS,
    POSTERIOR_PROTOCOLS,
    PROTOCOL_INFO,
    PROTOCOLS,
    reads_labels,
)


def test_one_table_names_every_protocol_once():
    assert tuple(PROTOCOL_INFO) == PROTOCOLS
    assert [p for p in PROTOCOLS if reads_labels(p)] == ["label-aware"]
    assert set(POSTERIOR_PROTOCOLS) == {"label-free-posterior", "label-free-top1"}
    assert "label-aware" not in NEW_TEXT_PROTOCOLS and NEW_TEXT_PROTOCOL in NEW_TEXT_PROTOCOLS
    assert all(info.short and info.help and info.name in info.label for info in PROTOCOL_INFO.values())


def test_every_reader_takes_its_protocol_text_from_the_table():
    from dkw_app import keywords_door
    from dkw_core.cli import build_parser

    assert all(PROTOCOL_INFO[p].help in keywords_door.PROTOCOL_HELP[p] for p in PROTOCOLS)
    sub = next(a for a in build_parser()._actions if a.dest == "command").choices
    helps = {a.dest: a.help for a in sub["evaluate"]._actions}
    assert PROTOCOL_INFO["label-free-top1"].help in helps["protocol"]


def _default(fn, name="protocol"):
    return inspect.signature(fn).parameters[name].default


def test_every_new_text_path_defaults_to_label_free_top1():
    from dkw_core.cluster.batch import text_records_on_cluster
    from dkw_core.evaluation.estimator import DiscriminativeKeywordVectorizer
    from dkw_core.keywords import KeywordModel
    from dkw_core.keywords.batch import text_records
    from dkw_core.keywords.newtexts import text_keywords

    assert NEW_TEXT_PROTOCOL == "label-free-top1" and DEFAULT_PROTOCOL == "label-aware"
    assert _default(text_keywords) == NEW_TEXT_PROTOCOL
    assert _default(KeywordModel.rank_texts) == NEW_TEXT_PROTOCOL
    assert _default(text_records) == NEW_TEXT_PROTOCOL
    assert _default(text_records_on_cluster) == NEW_TEXT_PROTOCOL
    assert DiscriminativeKeywordVectorizer().protocol == NEW_TEXT_PROTOCOL
    assert _default(KeywordModel.keywords) == DEFAULT_PROTOCOL  # corpus documents: the paper's


@pytest.mark.parametrize("argv,new_texts,want", [
    ([], True, "label-free-top1"), ([], False, "label-aware"),
    (["--protocol", "label-free"], True, "label-free"), (["--protocol", "label-free-top1"], False, "label-free-top1"),
])
def test_the_cli_resolves_the_protocol_by_what_it_weights(argv, new_texts, want):
    from dkw_core.cli import build_parser
    from dkw_core.keywords.request import KeywordRequest

    args = build_parser().parse_args(["keywords", *argv])
    what = {"text": "a new text"} if new_texts else {"doc": "20ng/test/comp.graphics/38758"}
    assert KeywordRequest(protocol=args.protocol, **what).resolved_protocol == want


def test_every_interface_takes_the_one_default_metric_k_and_n():
    """CLI, estimator, extract_keywords and the app read DEFAULT_METRIC / DEFAULT_K / DEFAULT_TOP,
    chosen from the reference results (docs/method.md §9)."""
    from dkw_app import keywords_door
    from dkw_core import extract_keywords
    from dkw_core.cli import build_parser
    from dkw_core.evaluation.estimator import DiscriminativeKeywordVectorizer
    from dkw_core.keywords.request import KeywordRequest, keyword_list
    from dkw_core.types import DEFAULT_CORPUS, DEFAULT_K, DEFAULT_METRIC, DEFAULT_TOP

    assert (DEFAULT_METRIC, DEFAULT_K, DEFAULT_TOP, DEFAULT_CORPUS) == ("lo-own", 90, 10, "20ng")
    for argv in (["keywords"], ["categories", "--dataset", "20ng"]):
        args = build_parser().parse_args(argv)
        assert (args.metric or args.metric_default) == [DEFAULT_METRIC] and (args.k, args.top) == (90, 10), argv
    est = DiscriminativeKeywordVectorizer()
    assert (est.metric, est.k, est.top) == (DEFAULT_METRIC, DEFAULT_K, DEFAULT_TOP)
    request = KeywordRequest(text="a new text")
    assert (request.metric_list, request.k_value, request.top_value, request.corpus) == (["lo-own"], 90, 10, "20ng")
    assert [_default(extract_keywords, n) for n in ("corpus", "metric", "k", "top", "protocol")] == [
        "20ng", None, None, None, None]
    assert keywords_door.keyword_list is keyword_list  # Home's box: a KeywordRequest(text=…), the defaults above


def test_the_default_metric_is_the_one_the_shipped_quality_table_shows_better():
    """docs/method.md §9: the default's category words are more coherent and more exclusive than
    those of the paper metrics within 0.5 F1 points of the best paper metric, on every corpus, and its micro-F1
    at N = 10 (label-free-top1, K 90) is within 0.5 points of the best latent metric's."""
    from dkw_core.evaluation.wordlists import load_quality
    from dkw_core.metrics import PAPER_METRICS
    from dkw_core.types import DEFAULT_METRIC

    table = load_quality().table
    latent = table[table["words"] != "own words"]
    for corpus, rows in latent.groupby("corpus"):
        by = rows.set_index("id")
        default = by.loc[DEFAULT_METRIC]
        best_f1 = rows["micro-F1 (%)"].max()
        assert default["micro-F1 (%)"] >= best_f1 - 0.5, corpus
        paper = by.loc[[m for m in PAPER_METRICS if m in by.index]]
        rivals = paper[paper["micro-F1 (%)"] >= paper["micro-F1 (%)"].max() - 0.5]  # the paper metrics a reader would pick
        assert len(rivals) and (default["NPMI"] > rivals["NPMI"]).all(), corpus
        assert (default["exclusivity"] > rivals["exclusivity"]).all(), corpus


def test_every_interface_takes_the_one_default_about():
    """The CLI, extract_keywords, the request path and the app read DEFAULT_ABOUT (docs/method.md
    §13); the Documents and Home slider start at it; ``about=1`` is the paper's words."""
    from dkw_app import keywords_door
    from dkw_core import extract_keywords
    from dkw_core.cli import build_parser
    from dkw_core.keywords.request import KeywordRequest, keyword_list
    from dkw_core.types import DEFAULT_ABOUT

    assert 0 < DEFAULT_ABOUT < 1
    args = build_parser().parse_args(["keywords"])
    assert args.about is None
    assert KeywordRequest(text="a new text", about=args.about).about_value == DEFAULT_ABOUT
    assert KeywordRequest(doc="20ng/test/comp.graphics/38758").about_value == DEFAULT_ABOUT
    assert KeywordRequest(doc="20ng/test/comp.graphics/38758", baseline=True).about_value == 1.0
    assert _default(extract_keywords, "about") is None and keywords_door.keyword_list is keyword_list


def test_the_default_about_is_the_one_its_measures_chose_on_the_training_split():
    """DEFAULT_ABOUT is the choice written by ``scripts/keyphrase_measures.py --choose`` on R8's
    training split (docs/results/keyphrases/r8-choice.json): the largest about whose topic MRR is
    at least YAKE's there (docs/method.md §13)."""
    import json
    from pathlib import Path

    from dkw_core.types import DEFAULT_ABOUT

    folder = Path(__file__).resolve().parent.parent / "docs" / "results" / "keyphrases"
    choice = json.loads((folder / "r8-choice.json").read_text())
    assert choice["split"] == "train" and choice["chosen_about"] == DEFAULT_ABOUT
    rows = {r["method"]: r for r in choice["rows"]}
    assert rows[f"keyphrases a={DEFAULT_ABOUT:g}"]["topic_mrr"] >= rows["yake"]["topic_mrr"]
    larger = [r for r in choice["rows"] if r["about"] is not None and r["about"] > DEFAULT_ABOUT]
    assert larger and all(r["topic_mrr"] < rows["yake"]["topic_mrr"] for r in larger)
