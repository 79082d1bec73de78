"""Evaluation of discriminative keywords (paper §4, docs/method.md §1 steps 7–8 and §3).

Sub-modules:

* :mod:`.classifiers`   scikit-learn classifiers on document vectors, micro/macro F1, per-category scores
* :mod:`.protocols`     the two evaluation protocols and the labelled F1 record
* :mod:`.search`        Algorithm 2 (successive filtering of (K, metric, N) setups)
* :mod:`.baselines`     tf-idf + LinearSVC on the full text, bag-of-words keyword sets
* :mod:`.results`       SQLAlchemy results store (cache of runs) + ``load_runs`` reader for the app
* :mod:`.significance`  Wilcoxon signed-rank and sign tests between metrics (paper appendix D)
* :mod:`.estimator`     scikit-learn transformer ``DiscriminativeKeywordVectorizer``
* :mod:`.report`        Markdown tables of stored runs
* :mod:`.cli`           ``evaluate``, ``search``, ``baseline``, ``report`` sub-commands

Nothing here imports streamlit.
"""
