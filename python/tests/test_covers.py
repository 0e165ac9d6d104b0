"""`covers` and `covers_bool` in the form of PyPI `xcover`: the examples of its tests,
rewritten, give the same solutions (compared as sets: the two packages search in
different orders); every solution is checked, and on small problems the list is compared
with every subset of options tried by brute force."""

import itertools

import numpy as np
import pytest

from xcover_dlx import InputError, Problem, covers, covers_bool


def brute_force(options, primary, secondary, colored=False):
    """Every set of options that covers each primary item once and each secondary item at
    most once or with one color."""
    def split(e):
        return tuple(e.split(":", 1)) if colored and isinstance(e, str) and ":" in e else (e, None)

    found = set()
    for r in range(len(options) + 1):
        for chosen in itertools.combinations(range(len(options)), r):
            seen, colors, ok = {}, {}, True
            for j in chosen:
                for e in options[j]:
                    item, color = split(e)
                    if item in primary:
                        seen[item] = seen.get(item, 0) + 1
                        ok &= seen[item] == 1
                    elif color is None:
                        ok &= item not in colors
                        colors[item] = None
                    else:
                        ok &= colors.get(item, color) == color
                        colors[item] = color
            if ok and all(seen.get(p, 0) == 1 for p in primary):
                found.add(frozenset(chosen))
    return found


def as_sets(solutions):
    return {frozenset(s) for s in solutions}


def test_knuth_simple():
    options = [{"c", "e"}, {"a", "d", "g"}, {"b", "c", "f"}, {"a", "d", "f"}, {"b", "g"}, {"d", "e", "g"}]
    sols = list(covers(options))
    assert as_sets(sols) == {frozenset({0, 3, 4})}
    assert as_sets(sols) == brute_force([list(o) for o in options], set("abcdefg"), set())


def test_wikipedia():
    options = [{1, 4, 7}, {1, 4}, {4, 5, 7}, {3, 5, 6}, {2, 3, 6, 7}, {2, 7}]
    assert as_sets(covers(options)) == {frozenset({1, 3, 5})}


def test_readme_example_order():
    assert list(covers([[1, 4, 7], [1, 4], [4, 5, 7], [3, 5, 6], [2, 3, 6, 7], [2, 7]])) == [[1, 3, 5]]


BOOL = np.array(
    [
        [1, 0, 0, 1, 1, 0, 1, 0],
        [1, 0, 0, 0, 1, 1, 0, 1],
        [1, 0, 0, 0, 1, 1, 1, 0],
        [1, 0, 1, 0, 1, 1, 0, 0],
        [1, 0, 0, 0, 1, 0, 1, 1],
        [1, 0, 1, 1, 1, 0, 0, 0],
        [1, 0, 0, 0, 0, 1, 1, 1],
        [0, 1, 0, 1, 1, 0, 1, 0],
        [0, 1, 0, 0, 1, 1, 0, 1],
        [0, 1, 0, 0, 1, 1, 1, 0],
        [0, 1, 1, 0, 1, 1, 0, 0],
        [0, 1, 0, 0, 1, 0, 1, 1],
        [0, 1, 1, 1, 1, 0, 0, 0],
        [0, 1, 0, 0, 0, 1, 1, 1],
    ]
)


@pytest.mark.parametrize("dtype", [bool, np.int8, np.int64, np.uint16, np.float32])
def test_bool_solve(dtype):
    assert as_sets(covers_bool(BOOL.astype(dtype))) == {frozenset({5, 13}), frozenset({6, 12})}


def test_bool_matrix_with_secondary_columns():
    # The first 6 columns primary: the last two may stay uncovered.
    options = [list(np.nonzero(row)[0]) for row in BOOL]
    want = brute_force(options, set(range(6)), {6, 7})
    assert as_sets(covers_bool(BOOL, 6)) == want
    assert as_sets(covers_bool(BOOL.T.copy().T, 6)) == want  # a Fortran-ordered array
    assert as_sets(covers_bool(BOOL.tolist(), 6)) == want  # anything numpy.asarray takes


def test_simple_secondary():
    primary, secondary = list("abcdefg"), list("hijk")
    options = [["c", "e", "k"], ["a", "d", "g", "h"], ["b", "c", "f"], ["a", "d", "f", "h", "i"], ["b", "g", "j"], ["d", "e", "g", "i"], ["a", "j"]]
    sols = as_sets(covers(options, primary=primary, secondary=secondary))
    assert sols == {frozenset({0, 3, 4}), frozenset({2, 5, 6})}
    assert sols == brute_force(options, set(primary), set(secondary))


def test_simple_colored():
    options = [["p", "q", "x", "y:A"], ["p", "r", "x:A", "y"], ["p", "x:B"], ["q", "x:A"], ["r", "y:B"]]
    sols = list(covers(options, primary=["p", "q", "r"], secondary=["x", "y"], colored=True))
    assert len(sols) == 1 and set(sols[0]) == {1, 3}


def test_simple_colored2():
    options = [["a", "b", "d"], ["c", "d"], ["c", "e"], ["a", "b", "d:BLUE"], ["c", "d:BLUE"], ["a", "b", "d:RED"], ["c", "d:RED"]]
    sols = as_sets(covers(options, primary=list("abc"), secondary=list("def"), colored=True))
    assert len(sols) == 5
    assert sols == brute_force(options, set("abc"), set("def"), colored=True)


def queens(n):
    options = [[f"r{r}", f"c{c}", f"d{r + c}", f"a{r + n - 1 - c}"] for r in range(n) for c in range(n)]
    secondary = {f"d{i}" for i in range(2 * n - 1)} | {f"a{i}" for i in range(2 * n - 1)}
    return options, secondary


def test_n_queens():
    options, secondary = queens(8)
    assert len(list(covers(options, secondary=secondary))) == 92
    assert Problem(options, secondary=secondary).count() == 92


def test_unsolvable():
    options = [[0, 1], [0, 2], [1, 4], [1, 5], [1, 6], [2, 4], [2, 5], [2, 6], [3, 4], [3, 5], [3, 6], [4, 5], [4, 6]]
    assert list(covers(options)) == []


def test_langford_from_items_and_bounds():
    # Langford pairs n=4 (2 solutions counting reversals), then with a multiplicity item.
    n = 4
    options = [[f"v{i}", f"s{j}", f"s{j + i + 1}"] for i in range(1, n + 1) for j in range(2 * n - i - 1)]
    assert Problem(options).count() == 2
    # "k" may be covered 2 or 3 times by three options that cover it alone.
    p = Problem([["k", "x"], ["k", "y"], ["k", "z"]], secondary=["x", "y", "z"], bounds={"k": (2, 3)})
    assert p.bounds == {"k": (2, 3)}
    assert as_sets(p.solutions()) == {frozenset(s) for s in [(0, 1), (0, 2), (1, 2), (0, 1, 2)]}


def test_items_and_options_as_given():
    p = Problem([[(0, 0), "x"], [(0, 0)]], secondary=["x"])
    assert p.items == [(0, 0), "x"]
    assert p.primary_count == 1 and len(p) == 2
    assert p.option(0) == [(0, 0), "x"]
    assert list(p.solutions(as_items=True)) == [[[(0, 0), "x"]], [[(0, 0)]]]
    with pytest.raises(IndexError):
        p.option(2)


def test_limit_threads_and_order():
    options, secondary = queens(9)
    one = list(covers(options, secondary=secondary))
    assert len(one) == 352
    assert list(covers(options, secondary=secondary, threads=2)) == one
    assert list(covers(options, secondary=secondary, threads=0, limit=10)) == one[:10]
    p = Problem(options, secondary=secondary)
    s = p.solutions(limit=5)
    assert list(s) == one[:5] and s.stats.end == "solution_limit"
    assert list(p.solutions(every=50)) == one[49::50]


def partitions(n):
    """The partitions of 0..n-1 into blocks of 1 to 3: solutions of several lengths."""
    blocks = [list(c) for r in (1, 2, 3) for c in itertools.combinations(range(n), r)]
    matrix = np.array([[int(k in b) for k in range(n)] for b in blocks])
    return blocks, matrix


@pytest.mark.parametrize(
    "search",
    [
        lambda o, m: covers(o),
        lambda o, m: covers(o, threads=2),
        lambda o, m: covers_bool(m),
        lambda o, m: Problem(o).solutions(),
        lambda o, m: Problem(o).solutions(every=3),
    ],
    ids=["covers", "threads", "covers_bool", "solutions", "every"],
)
def test_each_list_handed_out_is_the_callers(search):
    # The iterator builds each list from the last one: a list the caller changes or keeps
    # must not change the solutions after it, nor be changed by them.
    options, matrix = partitions(7)
    want = [s.copy() for s in search(options, matrix)]
    assert len(want) > 100 and len({len(s) for s in want}) > 2
    got, kept = [], []
    for s in search(options, matrix):
        got.append(s.copy())
        kept.append(s)
        s.reverse()
        s.append(-1)
    assert got == want
    assert kept == [s[::-1] + [-1] for s in want]


def test_options_handed_out_are_the_callers():
    # as_items and option() copy each option as given: changing a copy changes neither the
    # problem nor a later solution.
    options, _ = partitions(5)
    p = Problem(options)
    want = [[list(o) for o in s] for s in p.solutions(as_items=True)]
    got = list(p.solutions(as_items=True))
    for s in got:
        for o in s:
            o.append(-1)
    assert got == [[o + [-1] for o in s] for s in want]
    p.option(0).append(-1)
    assert p.option(0) == options[0] and list(p.solutions(as_items=True)) == want


def test_long_item_names_and_builder_errors():
    long = "an item with a long name"
    assert Problem([[long]]).count() == 1
    with pytest.raises(InputError) as e:
        Problem([["a", "a"]])
    assert (e.value.message, e.value.item, e.value.kind) == ("Duplicate item name in this option", "'a'", "DuplicateItemInOption")
    with pytest.raises(InputError) as e:
        Problem([["a", "b"]], primary=["a"], secondary=["c"])
    assert (e.value.message, e.value.item) == ("Unknown item name", "'b'")
    with pytest.raises(InputError) as e:
        Problem([["a"]], primary=["a", "a"])
    assert e.value.message == "Duplicate item name"
    # "s" is not primary: it is inferred secondary, and may take a color.
    assert Problem([["a", "s:red"]], primary=["a"], colored=True).items == ["a", "s"]
    with pytest.raises(InputError) as e:
        Problem([["a:red"]], primary=["a"], secondary=[], colored=True)
    assert e.value.item == "'a'" and "color" in e.value.message.lower()
    with pytest.raises(InputError) as e:
        Problem([["a", "s:"]], secondary=["s"], colored=True)
    assert (e.value.message, e.value.item) == ("Empty color", "'s'")
    with pytest.raises(InputError):
        Problem([["k"]], bounds={"k": (3, 2)})
    with pytest.raises(InputError):
        Problem([["k", "s"]], secondary=["s"], bounds={"s": (1, 2)})
    with pytest.raises(InputError):
        Problem([])
