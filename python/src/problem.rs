//! Exact cover for Python: `Problem` (Knuth's text, Python options, or a 0/1 matrix),
//! its searches (`count`, `search`, `solutions`), and the `Solutions` iterator.
use std::sync::Mutex;
use std::time::Instant;

use pyo3::exceptions::{PyIndexError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};
use xcover_solver::{End, Entry, Problem as RustProblem, ProblemBuilder, Solver};

use crate::errors::{input_error, to_py};
use crate::wait::{run_stoppable, wait_until, TICK};

/// The counters of a search (Knuth's closing ``Altogether ...`` line).
#[pyclass(module = "xcover_dlx", name = "Stats", frozen, get_all, eq)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Stats {
    /// Solutions found.
    solutions: u64,
    /// Memory accesses of the search (Knuth's cost measure).
    mems: u64,
    /// Memory accesses spent reading the input.
    input_mems: u64,
    /// Updates (removals from lists).
    updates: u64,
    /// Cleansings (purified color constraints).
    cleansings: u64,
    /// Search-tree nodes.
    nodes: u64,
    /// The deepest level reached.
    max_level: u32,
    /// Why the search ended: "exhausted", "solution_limit", "timeout" or "stopped".
    end: &'static str,
}

impl From<&xcover_solver::Stats> for Stats {
    fn from(s: &xcover_solver::Stats) -> Stats {
        Stats {
            solutions: s.solutions,
            mems: s.mems,
            input_mems: s.input_mems,
            updates: s.updates,
            cleansings: s.cleansings,
            nodes: s.nodes,
            max_level: s.max_level,
            end: match s.end {
                End::Exhausted => "exhausted",
                End::SolutionLimit => "solution_limit",
                End::Timeout => "timeout",
                _ => "stopped",
            },
        }
    }
}

#[pymethods]
impl Stats {
    fn __repr__(&self) -> String {
        format!(
            "Stats(solutions={}, mems={}, input_mems={}, updates={}, cleansings={}, nodes={}, max_level={}, end={:?})",
            self.solutions,
            self.mems,
            self.input_mems,
            self.updates,
            self.cleansings,
            self.nodes,
            self.max_level,
            self.end
        )
    }
}

/// How options are shown as items: Knuth's text entries, or the Python objects given.
enum Shown {
    /// From text: each option's entries as `name` or `name:color` strings.
    Text,
    /// Built in Python: each option's entries as given (a list per option).
    Given(Py<PyList>),
}

/// An exact-cover problem with multiplicities and colors (Knuth's DLX3 input).
///
/// Problem(options, primary=None, secondary=None, colored=False, *, bounds=None) builds it
/// from Python options as PyPI `xcover` takes them; Problem.parse(text), Problem.read(path)
/// read Knuth's format; Problem.from_matrix(m, primary=None) a 0/1 matrix.
///
/// >>> p = Problem([["a", "b"], ["c"], ["a", "c"], ["b"]])
/// >>> list(p.solutions()), p.count()
/// ([[0, 1], [2, 3]], 2)
#[pyclass(module = "xcover_dlx", name = "Problem", frozen)]
pub(crate) struct Problem {
    inner: RustProblem,
    /// The items as the user knows them (names for text), primary ones first.
    items: Py<PyList>,
    shown: Shown,
}

/// The search settings every search method takes.
#[derive(Clone, Copy)]
struct Settings {
    limit: Option<i64>,
    timeout_mems: Option<i64>,
    seed: Option<i64>,
    threads: i64,
    /// Count Knuth's mems, updates and cleansings: only where the caller can read them
    /// (`search`, `solutions().stats`); the search is faster without.
    counters: bool,
}

fn non_negative(name: &str, v: i64) -> PyResult<u64> {
    u64::try_from(v).map_err(|_| PyValueError::new_err(format!("{name} must be >= 0, not {v}")))
}

impl Settings {
    /// What PyPI xcover's calls take (a limit and threads). Their users read no counters,
    /// so the search runs without Knuth's (the faster one).
    fn pypi_xcover(limit: Option<i64>, threads: i64) -> Settings {
        Settings {
            limit,
            timeout_mems: None,
            seed: None,
            threads,
            counters: false,
        }
    }

    fn solver(self, problem: &RustProblem) -> PyResult<Solver> {
        let mut s = problem.solver();
        if let Some(n) = self.limit {
            s = s.max_solutions(non_negative("limit", n)?);
        }
        if let Some(n) = self.timeout_mems {
            s = s.timeout_mems(non_negative("timeout_mems", n)?);
        }
        if let Some(seed) = self.seed {
            let seed = i32::try_from(seed).map_err(|_| {
                PyValueError::new_err(format!("seed must fit in 32 bits (Knuth's), not {seed}"))
            })?;
            s = s.seed(seed);
        }
        let threads = non_negative("threads", self.threads)?;
        s = s.knuth_counters(self.counters);
        Ok(s.threads(usize::try_from(threads).unwrap_or(usize::MAX).min(1024)))
    }
}

impl Problem {
    fn from_text(py: Python<'_>, text: &[u8]) -> PyResult<Problem> {
        let inner = RustProblem::parse_bytes(text).map_err(to_py)?;
        let names: Vec<&str> = inner.items().iter().map(|i| i.name()).collect();
        let items = PyList::new(py, names)?.unbind();
        Ok(Problem {
            inner,
            items,
            shown: Shown::Text,
        })
    }

    /// The entries of option `j` as the user knows them.
    fn option_entries<'py>(&self, py: Python<'py>, j: usize) -> PyResult<Bound<'py, PyList>> {
        match &self.shown {
            Shown::Given(options) => {
                // A copy made in C (`list[:]`): the caller may change it.
                let given = options.bind(py).get_item(j)?;
                let given = given.cast::<PyList>()?;
                Ok(given.get_slice(0, given.len()))
            }
            Shown::Text => {
                let option = self
                    .inner
                    .option(j)
                    .ok_or_else(|| PyIndexError::new_err("option index out of range"))?;
                let entries: Vec<String> = option
                    .items()
                    .map(|(name, color)| match color {
                        Some(c) => format!("{name}:{c}"),
                        None => name.to_owned(),
                    })
                    .collect();
                PyList::new(py, entries)
            }
        }
    }
}

/// Reads an item list argument (primary or secondary) into `out`, refusing repeats.
fn take_items<'py>(
    py: Python<'py>,
    list: &Bound<'py, PyAny>,
    index: &Bound<'py, PyDict>,
    out: &mut Vec<Bound<'py, PyAny>>,
) -> PyResult<()> {
    for item in list.try_iter()? {
        let item = item?;
        if index.contains(&item)? {
            return Err(input_error(
                py,
                "DuplicateItemName",
                "Duplicate item name",
                Some(item.repr()?.to_string()),
            ));
        }
        index.set_item(&item, out.len())?;
        out.push(item);
    }
    Ok(())
}

/// Splits a colored entry `name:color` (at its first `:`).
fn split_color<'py>(
    py: Python<'py>,
    entry: Bound<'py, PyAny>,
) -> PyResult<(Bound<'py, PyAny>, Option<String>)> {
    if let Ok(s) = entry.cast::<PyString>() {
        let text = s.to_cow()?;
        let text: &str = &text;
        if let Some((name, color)) = text.split_once(':') {
            return Ok((PyString::new(py, name).into_any(), Some(color.to_owned())));
        }
    }
    Ok((entry, None))
}

/// A problem from Python options, in the form of PyPI `xcover`'s `covers`.
pub(crate) fn build_from_python<'py>(
    py: Python<'py>,
    options: &Bound<'py, PyAny>,
    primary: Option<&Bound<'py, PyAny>>,
    secondary: Option<&Bound<'py, PyAny>>,
    colored: bool,
    bounds: Option<&Bound<'py, PyAny>>,
) -> PyResult<Problem> {
    // Every option's entries: (item, color), and the option as given (a list).
    let mut entries: Vec<Vec<(Bound<'py, PyAny>, Option<String>)>> = Vec::new();
    let given = PyList::empty(py);
    for option in options.try_iter()? {
        let option = option?;
        let list = PyList::new(py, option.try_iter()?.collect::<PyResult<Vec<_>>>()?)?;
        let mut row = Vec::with_capacity(list.len());
        for entry in list.iter() {
            row.push(if colored {
                split_color(py, entry)?
            } else {
                (entry, None)
            });
        }
        given.append(list)?;
        entries.push(row);
    }
    // The items: those listed, and those of the options that are not (primary when no
    // primary list is given, secondary when no secondary list is), in order of first use.
    let index = PyDict::new(py);
    let (mut prim, mut sec) = (Vec::new(), Vec::new());
    if let Some(p) = primary {
        take_items(py, p, &index, &mut prim)?;
    }
    if let Some(s) = secondary {
        take_items(py, s, &index, &mut sec)?;
    }
    for row in &entries {
        for (item, _) in row {
            if index.contains(item)? {
                continue;
            }
            match (primary.is_some(), secondary.is_some()) {
                (true, true) => {
                    return Err(input_error(
                        py,
                        "UnknownItemName",
                        "Unknown item name",
                        Some(item.repr()?.to_string()),
                    ))
                }
                (false, _) => {
                    index.set_item(item, prim.len())?;
                    prim.push(item.clone());
                }
                (true, false) => {
                    index.set_item(item, sec.len())?;
                    sec.push(item.clone());
                }
            }
        }
    }
    // The secondary items, listed or inferred.
    let secondary_dict = PyDict::new(py);
    for (k, s) in sec.iter().enumerate() {
        secondary_dict.set_item(s, k)?;
    }
    // Item k of the problem (primary first) is named `k` for the engine.
    let n_prim = prim.len();
    let position = |item: &Bound<'py, PyAny>| -> PyResult<usize> {
        let k: usize = index.get_item(item)?.map_or(Ok(0), |v| v.extract())?;
        Ok(if secondary_dict.contains(item)? {
            n_prim + k
        } else {
            k
        })
    };
    let mut lo_hi = vec![(1u32, 1u32); n_prim];
    if let Some(b) = bounds {
        let b = b
            .cast::<PyDict>()
            .map_err(|_| PyValueError::new_err("bounds must be a dict {item: (lo, hi)}"))?;
        for (item, pair) in b.iter() {
            let shown = || item.repr().map(|r| r.to_string()).ok();
            let k = match index.get_item(&item)? {
                Some(_) if !secondary_dict.contains(&item)? => position(&item)?,
                _ => {
                    return Err(input_error(
                        py,
                        "Bounds",
                        "Bounds are for primary items only",
                        shown(),
                    ))
                }
            };
            let (lo, hi): (i64, i64) = pair.extract().map_err(|_| {
                input_error(
                    py,
                    "Bounds",
                    "Bounds must be a pair of integers (lo, hi)",
                    shown(),
                )
            })?;
            let (Ok(lo), Ok(hi)) = (u32::try_from(lo), u32::try_from(hi)) else {
                return Err(input_error(
                    py,
                    "Bounds",
                    "Bound too large or negative",
                    shown(),
                ));
            };
            lo_hi[k] = (lo, hi);
        }
    }
    let mut builder: ProblemBuilder = RustProblem::builder();
    for (k, &(lo, hi)) in lo_hi.iter().enumerate() {
        builder = builder.primary_with_bounds(k.to_string(), lo, hi);
    }
    for k in 0..sec.len() {
        builder = builder.secondary((n_prim + k).to_string());
    }
    for row in &entries {
        let mut option = Vec::with_capacity(row.len());
        for (item, color) in row {
            let name = position(item)?.to_string();
            option.push(match color {
                Some(c) => Entry::colored(name, c.as_str()),
                None => Entry::new(name),
            });
        }
        builder = builder.option(option);
    }
    let all: Vec<Bound<'py, PyAny>> = prim.into_iter().chain(sec).collect();
    let inner = builder.build().map_err(|e| {
        // The engine's item names are positions: show the user's item instead.
        let shown = e
            .item()
            .and_then(|n| n.parse::<usize>().ok())
            .and_then(|k| all.get(k))
            .and_then(|item| item.repr().ok())
            .map(|r| r.to_string());
        match shown {
            Some(item) => {
                let kind = match e.kind() {
                    xcover_solver::ErrorKind::Input(_) => crate::errors::kind_name(e.kind()),
                    // Builder mistakes have no Knuth message (no `!`).
                    _ => "Builder".to_owned(),
                };
                input_error(py, &kind, e.message(), Some(item))
            }
            None => to_py(e),
        }
    })?;
    Ok(Problem {
        inner,
        items: PyList::new(py, all)?.unbind(),
        shown: Shown::Given(given.unbind()),
    })
}

/// A problem from a 0/1 or boolean matrix (rows options, columns items, the first
/// `primary` columns primary), read through numpy in bulk.
pub(crate) fn build_from_matrix<'py>(
    py: Python<'py>,
    matrix: &Bound<'py, PyAny>,
    primary: Option<i64>,
) -> PyResult<Problem> {
    let np = py.import("numpy")?;
    let a = np.call_method1("asarray", (matrix,))?;
    let ndim: usize = a.getattr("ndim")?.extract()?;
    if ndim != 2 {
        return Err(input_error(
            py,
            "Matrix",
            &format!(
                "The matrix must have 2 dimensions (rows are options, columns items), not {ndim}"
            ),
            None,
        ));
    }
    let kind: String = a.getattr("dtype")?.getattr("kind")?.extract()?;
    if !matches!(kind.as_str(), "b" | "i" | "u" | "f") {
        return Err(input_error(
            py,
            "Matrix",
            &format!("The matrix must hold 0/1 numbers or booleans, not dtype kind {kind:?}"),
            None,
        ));
    }
    let zero_one = np
        .call_method1("isin", (&a, (0, 1)))?
        .call_method0("all")?
        .is_truthy()?;
    if !zero_one {
        return Err(input_error(
            py,
            "Matrix",
            "The matrix must hold only 0 and 1 (or False and True)",
            None,
        ));
    }
    let (rows, cols): (usize, usize) = a.getattr("shape")?.extract()?;
    let bytes = np
        .call_method1("ascontiguousarray", (&a, "uint8"))?
        .call_method0("tobytes")?;
    let bytes = bytes.cast::<PyBytes>()?.as_bytes();
    let n_prim = match primary {
        None => cols,
        Some(p) => match usize::try_from(p) {
            Ok(p) if p <= cols => p,
            _ => {
                return Err(input_error(
                    py,
                    "Matrix",
                    &format!("primary must be a number of columns from 0 to {cols}, not {p}"),
                    None,
                ))
            }
        },
    };
    let mut builder = RustProblem::builder();
    for k in 0..cols {
        builder = if k < n_prim {
            builder.primary(k.to_string())
        } else {
            builder.secondary(k.to_string())
        };
    }
    let given = PyList::empty(py);
    for r in 0..rows {
        let row = &bytes[r * cols..(r + 1) * cols];
        let columns: Vec<usize> = (0..cols).filter(|&k| row[k] != 0).collect();
        builder = builder.option(columns.iter().map(|k| k.to_string()));
        given.append(PyList::new(py, &columns)?)?;
    }
    let inner = builder.build().map_err(to_py)?;
    Ok(Problem {
        inner,
        items: PyList::new(py, 0..cols)?.unbind(),
        shown: Shown::Given(given.unbind()),
    })
}

#[pymethods]
impl Problem {
    #[new]
    #[pyo3(signature = (options, primary=None, secondary=None, colored=false, *, bounds=None))]
    fn py_new<'py>(
        py: Python<'py>,
        options: &Bound<'py, PyAny>,
        primary: Option<&Bound<'py, PyAny>>,
        secondary: Option<&Bound<'py, PyAny>>,
        colored: bool,
        bounds: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Problem> {
        build_from_python(py, options, primary, secondary, colored, bounds)
    }

    /// Reads Knuth's DLX3 text (str or bytes). Raises InputError with Knuth's message,
    /// line and position.
    ///
    /// >>> Problem.parse("A B\nA\nB\nA B\n").count()
    /// 2
    #[staticmethod]
    fn parse(py: Python<'_>, text: &Bound<'_, PyAny>) -> PyResult<Problem> {
        if let Ok(s) = text.cast::<PyString>() {
            Problem::from_text(py, s.to_cow()?.as_bytes())
        } else if let Ok(b) = text.cast::<PyBytes>() {
            Problem::from_text(py, b.as_bytes())
        } else {
            Err(PyValueError::new_err(
                "parse takes Knuth's text as str or bytes",
            ))
        }
    }

    /// Reads a `.dlx` file in Knuth's format (OSError when it cannot be read).
    #[staticmethod]
    fn read(py: Python<'_>, path: std::path::PathBuf) -> PyResult<Problem> {
        let text = std::fs::read(&path).map_err(|e| {
            pyo3::exceptions::PyOSError::new_err(format!("can't read {}: {e}", path.display()))
        })?;
        Problem::from_text(py, &text)
    }

    /// A problem from a 2-D 0/1 or boolean array: rows options, columns items, the first
    /// `primary` columns (default all) primary. Read in bulk through numpy.
    #[staticmethod]
    #[pyo3(signature = (matrix, primary=None))]
    fn from_matrix(
        py: Python<'_>,
        matrix: &Bound<'_, PyAny>,
        primary: Option<i64>,
    ) -> PyResult<Problem> {
        build_from_matrix(py, matrix, primary)
    }

    /// The items, primary ones first (names for text, column numbers for a matrix).
    #[getter]
    fn items(&self, py: Python<'_>) -> Py<PyList> {
        self.items.clone_ref(py)
    }

    /// How many items are primary.
    #[getter]
    fn primary_count(&self) -> usize {
        self.inner
            .items()
            .iter()
            .filter(|i| !i.is_secondary())
            .count()
    }

    /// Every primary item's bounds (lo, hi).
    #[getter]
    fn bounds<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let out = PyDict::new(py);
        let items = self.items.bind(py);
        for (k, item) in self.inner.items().iter().enumerate() {
            if !item.is_secondary() {
                out.set_item(items.get_item(k)?, item.bounds())?;
            }
        }
        Ok(out)
    }

    fn __len__(&self) -> usize {
        self.inner.option_count()
    }

    /// Option `index`'s entries ("name" or "name:c" for text; as given otherwise).
    fn option<'py>(&self, py: Python<'py>, index: i64) -> PyResult<Bound<'py, PyList>> {
        let n = self.inner.option_count();
        match usize::try_from(index) {
            Ok(j) if j < n => self.option_entries(py, j),
            _ => Err(PyIndexError::new_err(format!(
                "option {index} out of range (the problem has {n})"
            ))),
        }
    }

    fn __repr__(&self) -> String {
        let n = self.inner.items().len();
        let p = self.primary_count();
        format!(
            "<xcover_dlx.Problem: {p} primary and {} secondary items, {} options>",
            n - p,
            self.inner.option_count()
        )
    }

    /// The number of solutions, found without listing them. limit: Knuth's t;
    /// timeout_mems: T; seed: s (one thread); threads: 0 for one per core.
    ///
    /// >>> Problem.parse("A\nA\nA\n").count(limit=1)
    /// 1
    #[pyo3(signature = (*, limit=None, timeout_mems=None, seed=None, threads=1))]
    fn count(
        &self,
        py: Python<'_>,
        limit: Option<i64>,
        timeout_mems: Option<i64>,
        seed: Option<i64>,
        threads: i64,
    ) -> PyResult<u64> {
        let settings = Settings {
            limit,
            timeout_mems,
            seed,
            threads,
            counters: false,
        };
        Ok(self.run(py, settings)?.solutions)
    }

    /// count(), returning every counter as a Stats (solutions, mems, updates, nodes, ...).
    ///
    /// >>> Problem.parse("A\nA\nA\n").search().solutions
    /// 2
    #[pyo3(signature = (*, limit=None, timeout_mems=None, seed=None, threads=1))]
    fn search(
        &self,
        py: Python<'_>,
        limit: Option<i64>,
        timeout_mems: Option<i64>,
        seed: Option<i64>,
        threads: i64,
    ) -> PyResult<Stats> {
        let settings = Settings {
            limit,
            timeout_mems,
            seed,
            threads,
            counters: true,
        };
        Ok(Stats::from(&self.run(py, settings)?))
    }

    /// The solutions in the order of Knuth's program, as a lazy iterator of option
    /// indices (or, with as_items, of options' entries); every: Knuth's m (only every
    /// n-th solution). Same solutions in the same order on any number of threads.
    ///
    /// >>> list(Problem.parse("A B\nA\nB\nA B\n").solutions(as_items=True))
    /// [[['A'], ['B']], [['A', 'B']]]
    #[pyo3(signature = (*, limit=None, timeout_mems=None, seed=None, threads=1, every=1, as_items=false))]
    #[allow(clippy::too_many_arguments)]
    fn solutions(
        slf: &Bound<'_, Problem>,
        limit: Option<i64>,
        timeout_mems: Option<i64>,
        seed: Option<i64>,
        threads: i64,
        every: i64,
        as_items: bool,
    ) -> PyResult<Solutions> {
        let settings = Settings {
            limit,
            timeout_mems,
            seed,
            threads,
            counters: true,
        };
        Problem::solutions_with(slf, settings, every, as_items)
    }
}

impl Problem {
    /// The search of `count` and `search`, without the GIL, stopped by Ctrl-C.
    fn run(&self, py: Python<'_>, settings: Settings) -> PyResult<xcover_solver::Stats> {
        let solver = settings.solver(&self.inner)?;
        run_stoppable(py, move |stop| solver.interrupt(stop).run())?.map_err(to_py)
    }

    /// The iterator of `solutions`, `covers` and `covers_bool`.
    fn solutions_with(
        slf: &Bound<'_, Problem>,
        settings: Settings,
        every: i64,
        as_items: bool,
    ) -> PyResult<Solutions> {
        let solver = settings.solver(&slf.get().inner)?;
        let every = non_negative("every", every)?;
        let options = slf.get().inner.option_count();
        Ok(Solutions {
            state: Mutex::new(State {
                solutions: solver.solutions(),
                every,
                seen: 0,
                as_items,
                problem: slf.clone().unbind(),
                lists: SolutionLists::new(slf.py(), options),
                wanted: Vec::new(),
            }),
        })
    }
}

struct State {
    solutions: xcover_solver::Solutions,
    every: u64,
    seen: u64,
    as_items: bool,
    problem: Py<Problem>,
    lists: SolutionLists,
    /// The solution `every` keeps, read while skipping the others.
    wanted: Vec<usize>,
}

/// The lists of option indices an iterator hands to Python, made from the last one.
///
/// Consecutive solutions of a depth-first search share the options of their first levels
/// (a solution lists its options level by level). So the iterator keeps one private list,
/// the last solution's, overwrites only the items after the prefix it shares with the next
/// solution, and hands out a copy of it (`list[:]`: one allocation and a reference count an
/// item, in C), not a list built an item at a time. The private list is never handed out:
/// the caller may change or keep every list it gets.
struct SolutionLists {
    /// The Python int of each option index, made when first handed out and shared by every
    /// solution after: an item costs a reference count, not an int made (and later freed)
    /// above Python's small-int cache.
    ints: Vec<Option<Py<PyAny>>>,
    /// The last solution's option indices, and the private list holding their ints.
    last: Vec<usize>,
    list: Py<PyList>,
}

impl SolutionLists {
    fn new(py: Python<'_>, options: usize) -> SolutionLists {
        SolutionLists {
            ints: std::iter::repeat_with(|| None).take(options).collect(),
            last: Vec::new(),
            list: PyList::empty(py).unbind(),
        }
    }

    /// A new list of `options` (as ints), copied from the private list once that holds them.
    fn indices<'py>(&mut self, py: Python<'py>, options: &[usize]) -> PyResult<Bound<'py, PyList>> {
        if let Err(e) = self.make_private(py, options) {
            // Start again from an empty list, so that the next solution is whole.
            self.last.clear();
            self.list = PyList::empty(py).unbind();
            return Err(e);
        }
        Ok(self.list.bind(py).get_slice(0, options.len()))
    }

    /// Makes the private list hold `options`: the items after the prefix shared with the
    /// last solution overwritten, then appended or cut to the new length. (Plain index
    /// loops: the iterator adapters cost twice the instructions here.)
    fn make_private(&mut self, py: Python<'_>, options: &[usize]) -> PyResult<()> {
        let (old, new) = (self.last.len(), options.len());
        let both = old.min(new);
        let (last, next) = (&mut self.last[..both], &options[..both]);
        let mut shared = 0;
        while shared < both && last[shared] == next[shared] {
            shared += 1;
        }
        let list = self.list.bind(py);
        for k in shared..both {
            list.set_item(k, shared_int(py, &mut self.ints, next[k]))?;
            last[k] = next[k];
        }
        for &j in &options[both..] {
            list.append(shared_int(py, &mut self.ints, j))?;
            self.last.push(j);
        }
        if new < old {
            list.del_slice(new, old)?;
            self.last.truncate(new);
        }
        Ok(())
    }
}

/// The Python int `j`, from `ints` (made there the first time).
#[inline]
fn shared_int<'py>(py: Python<'py>, ints: &mut [Option<Py<PyAny>>], j: usize) -> Bound<'py, PyAny> {
    match ints.get_mut(j) {
        Some(Some(int)) => int.bind(py).clone(),
        slot => {
            let int = match j.into_pyobject(py) {
                Ok(int) => int.into_any(),
                Err(never) => match never {},
            };
            if let Some(slot) = slot {
                *slot = Some(int.clone().unbind());
            }
            int
        }
    }
}

/// A solution as Python gets it: its option indices, or (`as_items`) its options' entries.
fn solution_list<'py>(
    py: Python<'py>,
    options: &[usize],
    lists: &mut SolutionLists,
    as_items: bool,
    problem: &Py<Problem>,
) -> PyResult<Bound<'py, PyList>> {
    if as_items {
        let problem = problem.get();
        let lists = options
            .iter()
            .map(|&j| problem.option_entries(py, j))
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, lists)
    } else {
        lists.indices(py, options)
    }
}

/// What a tick of skipping solutions gave.
enum Step {
    /// The wanted solution, copied into `State::wanted`.
    Found,
    End,
    Failed(xcover_solver::Error),
    Tick,
}

/// Reads solutions until one that `every` keeps, the end, or a tick has passed.
fn skip_to_wanted(state: &mut State) -> Step {
    let deadline = Instant::now() + TICK;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if !state.solutions.wait(left) {
            return Step::Tick;
        }
        // Read as slices: a skipped solution costs no allocation.
        match state.solutions.next_options() {
            None => return Step::End,
            Some(Err(e)) => return Step::Failed(e),
            Some(Ok(options)) => {
                state.seen += 1;
                if state.every != 0 && state.seen.is_multiple_of(state.every) {
                    state.wanted.clear();
                    state.wanted.extend_from_slice(options);
                    return Step::Found;
                }
            }
        }
        if Instant::now() >= deadline {
            return Step::Tick;
        }
    }
}

/// The solutions of a search, in order, found without the GIL as they are read. Each
/// list is a new one, the caller's to keep or change.
#[pyclass(module = "xcover_dlx", name = "Solutions", frozen)]
pub(crate) struct Solutions {
    state: Mutex<State>,
}

#[pymethods]
impl Solutions {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        let mut guard = self
            .state
            .try_lock()
            .map_err(|_| PyValueError::new_err("generator already executing"))?;
        let state = &mut *guard;
        let out = if state.every == 1 {
            // Every solution goes to Python: wait only when none is here yet.
            wait_until(py, &mut state.solutions, |s, t| s.wait(t))?;
            match state.solutions.next_options() {
                None => return Ok(None),
                Some(Err(e)) => return Err(to_py(e)),
                Some(Ok(options)) => solution_list(
                    py,
                    options,
                    &mut state.lists,
                    state.as_items,
                    &state.problem,
                )?,
            }
        } else {
            // Skipping solutions (Knuth's spacing): without the GIL, in ticks, with a
            // look for Ctrl-C between them.
            loop {
                let step = py.detach(|| skip_to_wanted(state));
                match step {
                    Step::Found => break,
                    Step::End => return Ok(None),
                    Step::Failed(e) => return Err(to_py(e)),
                    Step::Tick => py.check_signals()?,
                }
            }
            solution_list(
                py,
                &state.wanted,
                &mut state.lists,
                state.as_items,
                &state.problem,
            )?
        };
        Ok(Some(out.into_any().unbind()))
    }

    /// The counters, once the iterator is exhausted (``None`` before).
    #[getter]
    fn stats(&self) -> PyResult<Option<Stats>> {
        let guard = self
            .state
            .try_lock()
            .map_err(|_| PyRuntimeError::new_err("the solutions are being read"))?;
        Ok(guard.solutions.stats().map(Stats::from))
    }

    fn __repr__(&self) -> String {
        "<xcover_dlx.Solutions>".to_owned()
    }
}

/// PyPI xcover's covers(options, primary=None, secondary=None, colored=False): the
/// solutions (lists of option indices) of Problem(options, primary, secondary, colored).
///
/// >>> list(covers([[1, 4, 7], [1, 4], [4, 5, 7], [3, 5, 6], [2, 3, 6, 7], [2, 7]]))
/// [[1, 3, 5]]
#[pyfunction]
#[pyo3(signature = (options, primary=None, secondary=None, colored=false, *, bounds=None, limit=None, threads=1, as_items=false))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn covers<'py>(
    py: Python<'py>,
    options: &Bound<'py, PyAny>,
    primary: Option<&Bound<'py, PyAny>>,
    secondary: Option<&Bound<'py, PyAny>>,
    colored: bool,
    bounds: Option<&Bound<'py, PyAny>>,
    limit: Option<i64>,
    threads: i64,
    as_items: bool,
) -> PyResult<Solutions> {
    let problem = Bound::new(
        py,
        build_from_python(py, options, primary, secondary, colored, bounds)?,
    )?;
    Problem::solutions_with(&problem, Settings::pypi_xcover(limit, threads), 1, as_items)
}

/// PyPI xcover's covers_bool(matrix): the solutions (row indices) of a 0/1 matrix,
/// the first `primary` columns (default all) primary.
#[pyfunction]
#[pyo3(signature = (matrix, primary=None, *, limit=None, threads=1))]
pub(crate) fn covers_bool<'py>(
    py: Python<'py>,
    matrix: &Bound<'py, PyAny>,
    primary: Option<i64>,
    limit: Option<i64>,
    threads: i64,
) -> PyResult<Solutions> {
    let problem = Bound::new(py, build_from_matrix(py, matrix, primary)?)?;
    Problem::solutions_with(&problem, Settings::pypi_xcover(limit, threads), 1, false)
}
