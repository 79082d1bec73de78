"""The batch rule as a pure chooser (dkw_core/study/assignment.py), property-tested with
Hypothesis and without a database: what it picks, and that judges taking turns through it fill
every article exactly, never twice by one judge, batch by batch."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from dkw_core.study.assignment import DONE, WAIT, ArticleState, choose, order_key


@st.composite
def situations(draw):
    """A random study seen by one judge: articles in batches, slots used, hers or not, open or not."""
    need = draw(st.integers(1, 4))
    n = draw(st.integers(0, 12))
    arts = []
    for i in range(n):
        used = draw(st.sets(st.integers(1, need), max_size=need))
        mine = draw(st.booleans()) and bool(used)
        has_open = draw(st.booleans()) and bool(used)
        arts.append(ArticleState(article_id=i + 1, batch=draw(st.integers(0, 3)), used_slots=frozenset(used),
                                 mine=mine, has_open=has_open))
    return arts, need, draw(st.integers(0, 2**31 - 1))


@given(situations())
def test_the_choice_follows_the_batch_rule(case):
    arts, need, seed = case
    choice = choose(arts, judges_per_article=need, seed=seed)
    takeable = [a for a in arts if not a.mine and len(a.used_slots) < need]
    if not takeable:
        expected = WAIT if any(not a.mine and a.has_open for a in arts) else DONE
        assert choice == expected
        return
    assert choice.status == "task"
    art = next(a for a in arts if a.article_id == choice.article_id)
    assert not art.mine and len(art.used_slots) < need  # never hers, never full
    assert art.batch == min(a.batch for a in takeable)  # the first batch with work for her
    same_batch = [a for a in takeable if a.batch == art.batch]
    assert order_key(seed, art.article_id) == min(order_key(seed, a.article_id) for a in same_batch)
    assert choice.slot == min(set(range(1, need + 1)) - art.used_slots)  # the lowest free slot


@given(situations())
def test_the_choice_does_not_depend_on_the_order_the_counts_come_in(case):
    arts, need, seed = case
    assert choose(arts, judges_per_article=need, seed=seed) == choose(list(reversed(arts)),
                                                                       judges_per_article=need, seed=seed)


@settings(max_examples=60, deadline=None)
@given(batches=st.lists(st.integers(1, 4), min_size=1, max_size=4), need=st.integers(1, 3),
       judges=st.integers(1, 6), seeds=st.lists(st.integers(0, 2**31 - 1), min_size=6, max_size=6),
       turns=st.lists(st.integers(0, 5), max_size=200))
def test_judges_taking_turns_fill_every_article_exactly_batch_by_batch(batches, need, judges, seeds, turns):
    """Judges submit at once (no open reservations), in a random order of turns, then round-robin
    until all are done: each article gets min(need, judges) different judges, nobody judges an
    article twice, and each judge's batches never go back."""
    articles: list[tuple[int, int]] = []  # (article id, batch)
    aid = 0
    for b, count in enumerate(batches):
        for _ in range(count):
            aid += 1
            articles.append((aid, b))
    judged: dict[int, list[int]] = {}  # article -> judges
    seen_batches: dict[int, list[int]] = {j: [] for j in range(judges)}
    done: set[int] = set()

    def turn(j: int) -> None:
        states = [ArticleState(a, b, frozenset(range(1, len(judged.get(a, [])) + 1)), j in judged.get(a, []), False)
                  for a, b in articles]
        choice = choose(states, judges_per_article=need, seed=seeds[j])
        assert choice.status in ("task", "done")  # nothing is ever held open here, so never "wait"
        if choice.status == "done":
            done.add(j)
            return
        assert j not in judged.get(choice.article_id, [])
        assert choice.slot == len(judged.get(choice.article_id, [])) + 1
        judged.setdefault(choice.article_id, []).append(j)
        seen_batches[j].append(dict(articles)[choice.article_id])

    for j in turns:
        if j < judges:
            turn(j)
    while len(done) < judges:
        for j in range(judges):
            if j not in done:
                turn(j)
    assert {a: len(js) for a, js in judged.items()} == {a: min(need, judges) for a, _b in articles}
    assert all(len(set(js)) == len(js) for js in judged.values())
    assert all(seq == sorted(seq) for seq in seen_batches.values())


def test_an_article_held_by_someone_else_makes_her_wait_until_it_is_free():
    held = ArticleState(1, 0, frozenset({1}), mine=False, has_open=True)
    assert choose([held], judges_per_article=1, seed=1) == WAIT
    assert choose([held], judges_per_article=2, seed=1).article_id == 1
    assert choose([ArticleState(1, 0, frozenset({1}), mine=True, has_open=True)], judges_per_article=1, seed=1) == DONE
