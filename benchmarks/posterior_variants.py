"""Grid values (test split, not choices) of designs tried for the label-free posterior
weighting beside the two protocols dkw keeps (BENCHMARKS, "Label-free posterior weighting").

For one corpus, metric and K at N keywords, with the model's cached posteriors (out-of-fold for
training documents, fitted on the training split for test documents):

- soft: Σ_c P(c | d) · metric(w, c) (``label-free-posterior``);
- top1: the posterior's most probable category (``label-free-top1``);
- top1, gold training: test documents as top1, training documents with their gold category;
- slots: the top-1 keyword vector, scaled by P(top | d), placed in its category's block of a
  (categories × dimensions) vector, so the classifier rather than the weighting decides.

    python benchmarks/posterior_variants.py --dataset r52 --metric ig --k 90 --top 10
"""
from __future__ import annotations

import argparse

import numpy as np
import repo_root  # noqa: F401  (puts the repository root first on sys.path)


def main() -> None:
    from dkw_core.evaluation.classifiers import fit_predict, score_predictions
    from dkw_core.evaluation.experiments import load_experiment
    from dkw_core.keywords import top_n
    from dkw_core.metrics import get_metric

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dataset", required=True)
    ap.add_argument("--metric", default="ig")
    ap.add_argument("--k", type=int, default=90)
    ap.add_argument("--top", type=int, default=10)
    args = ap.parse_args()
    exp = load_experiment(args.dataset)
    m = exp.model
    cats = list(m.categories)
    P = {s: m.posteriors(s) for s in ("train", "test")}
    y = {s: m.labels(s) for s in ("train", "test")}
    C = {s: m.term_counts(s, args.k) for s in ("train", "test")}
    scores, use_tf = m.metric_scores(args.metric, args.k), get_metric(args.metric).tf

    def vectors(split, labels=None, weights=None):
        idx = top_n(C[split], scores, labels=labels, use_tf=use_tf, top=args.top, weights=weights)
        return np.asarray(m.document_vectors(idx))

    def slots(split):
        top = P[split].argmax(axis=1)
        v = vectors(split, labels=top) * P[split][np.arange(len(top)), top][:, None]
        out = np.zeros((len(top), len(cats), v.shape[1]))
        out[np.arange(len(top)), top] = v
        return out.reshape(len(top), -1)

    designs = {
        "soft (label-free-posterior)": (vectors("train", weights=P["train"]), vectors("test", weights=P["test"])),
        "top1 (label-free-top1)": (vectors("train", labels=P["train"].argmax(1)), vectors("test", labels=P["test"].argmax(1))),
        "top1, gold training": (vectors("train", labels=y["train"]), vectors("test", labels=P["test"].argmax(1))),
        "slots (top-1 block)": (slots("train"), slots("test")),
    }
    am = score_predictions(y["test"], P["test"].argmax(axis=1), cats)
    print(f"{args.dataset} test split, vectors={exp.vectors_name}, "
          f"metric={args.metric}, K={args.k}, N={args.top} (grid, not chosen), linear SVM one-vs-rest")
    print(f"  posterior classifier alone (argmax): micro-F1 {100 * am.micro_f1:.2f}  macro-F1 {100 * am.macro_f1:.2f}")
    for name, (X_tr, X_te) in designs.items():
        s = score_predictions(y["test"], fit_predict(X_tr, y["train"], X_te), cats)
        print(f"  {name}: micro-F1 {100 * s.micro_f1:.2f}  macro-F1 {100 * s.macro_f1:.2f}")


if __name__ == "__main__":
    main()
