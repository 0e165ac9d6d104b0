//! An exact-cover problem: read from Knuth's text or built in code, with names of any
//! length in the builder.
use std::collections::HashMap;
use std::fmt;
use std::io::Read;
use std::sync::Arc;

use crate::engine;
use crate::error::{Error, ErrorKind, InputError};
use crate::solve::{Solutions, Solver};

/// An item (a column of the matrix): its name, whether it is secondary, and for a primary
/// item how many times a solution covers it (`lo..=hi`; `1..=1` for exact cover).
///
/// ```
/// let problem = xcover_solver::Problem::parse("2:3|A B | x\nA B\nA x\n")?;
/// let a = &problem.items()[0];
/// assert_eq!((a.name(), a.is_secondary(), a.bounds()), ("A", false, (2, 3)));
/// assert!(problem.items()[2].is_secondary());
/// # Ok::<(), xcover_solver::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    name: String,
    secondary: bool,
    bounds: (u32, u32),
}

impl Item {
    pub(crate) fn new(name: String, secondary: bool, bounds: (u32, u32)) -> Item {
        Item {
            name,
            secondary,
            bounds,
        }
    }

    /// The item's name.
    ///
    /// ```
    /// let p = xcover_solver::Problem::builder().primary("a long name").option(["a long name"]).build()?;
    /// assert_eq!(p.items()[0].name(), "a long name");
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether the item is secondary (covered at most once, or by options of one color).
    ///
    /// ```
    /// let p = xcover_solver::Problem::parse("A | x\nA x\n")?;
    /// assert_eq!((p.items()[0].is_secondary(), p.items()[1].is_secondary()), (false, true));
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    pub fn is_secondary(&self) -> bool {
        self.secondary
    }

    /// How many times a solution covers a primary item, `(lo, hi)`; `(0, 0)` for a
    /// secondary item.
    ///
    /// ```
    /// let p = xcover_solver::Problem::parse("A 0:2|B | x\nA B x\n")?;
    /// let bounds: Vec<(u32, u32)> = p.items().iter().map(|i| i.bounds()).collect();
    /// assert_eq!(bounds, [(1, 1), (0, 2), (0, 0)]);
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    pub fn bounds(&self) -> (u32, u32) {
        self.bounds
    }
}

/// The entries of an option: item index (0-based) and color.
pub(crate) type Entries = Vec<(usize, Option<String>)>;

/// A built problem as the engine takes it: its options with item numbers and color bytes.
#[derive(Debug)]
pub(crate) struct Spec {
    pub options: Vec<Vec<(usize, u8)>>,
}

/// Where the engine gets the problem.
#[derive(Debug)]
pub(crate) enum Source {
    /// Knuth's text, read by the engine's parser.
    Text(Vec<u8>),
    /// Built in code.
    Built(Spec),
}

#[derive(Debug)]
pub(crate) struct Inner {
    pub source: Source,
    pub items: Vec<Item>,
    /// Every option, in input order.
    pub options: Vec<Entries>,
    /// The engine's option `j` (1-based) is `options[kept[j - 1]]`: options without a
    /// primary item are not the engine's.
    pub kept: Vec<usize>,
}

/// An exact-cover problem with multiplicities and colors (Knuth's DLX3 input): items, and
/// options that each cover some of them. A solution is a set of options that covers every
/// primary item within its bounds (once, by default) and every secondary item at most
/// once, or by options that agree on its color.
///
/// Cheap to clone (shared); [`Solution`](crate::Solution)s keep it alive.
///
/// ```
/// use xcover_solver::Problem;
///
/// let problem = Problem::parse("A B C\nA B\nC\nA C\nB\n")?;
/// assert_eq!(problem.count()?, 2); // {A B, C} and {A C, B}
/// # Ok::<(), xcover_solver::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Problem {
    pub(crate) inner: Arc<Inner>,
}

impl Problem {
    /// Reads Knuth's text format: a line of item names (primary, then `|` and the
    /// secondary ones; `lo:hi|name` gives bounds), then one option per line (`name` or
    /// `name:c` with a one-character color `c` on a secondary item). Lines starting with
    /// `|` are comments. Knuth's rules hold, names of at most 8 characters among them, and
    /// a refused input gets his message, with its line ([`Error`]).
    ///
    /// ```
    /// use xcover_solver::Problem;
    ///
    /// let problem = Problem::parse("| Knuth's example\nA B | X\nA X:1\nB X:1\nB X:2\n")?;
    /// assert_eq!((problem.items().len(), problem.option_count()), (3, 3));
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    pub fn parse(text: &str) -> Result<Problem, Error> {
        Problem::parse_bytes(text.as_bytes())
    }

    /// [`parse`](Problem::parse) for bytes (Knuth's names are bytes; those that are not
    /// UTF-8 are shown with `U+FFFD`).
    ///
    /// ```
    /// let problem = xcover_solver::Problem::parse_bytes(b"A\nA\n")?;
    /// assert_eq!(problem.count()?, 1);
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    pub fn parse_bytes(text: &[u8]) -> Result<Problem, Error> {
        Ok(Problem {
            inner: Arc::new(engine::describe_text(text)?),
        })
    }

    /// [`parse`](Problem::parse) of everything `reader` gives (a file, standard input).
    ///
    /// ```
    /// let problem = xcover_solver::Problem::from_reader(&b"A B\nA B\n"[..])?;
    /// assert_eq!(problem.option_count(), 1);
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    pub fn from_reader(mut reader: impl Read) -> Result<Problem, Error> {
        let mut text = Vec::new();
        reader.read_to_end(&mut text)?;
        Problem::parse_bytes(&text)
    }

    /// A builder for a problem made in code, with names of any length.
    ///
    /// ```
    /// use xcover_solver::{Entry, Problem};
    ///
    /// let problem = Problem::builder()
    ///     .primary("cell (1, 1)")
    ///     .primary_with_bounds("tiles", 1, 2)
    ///     .secondary("edge")
    ///     .option(["cell (1, 1)", "tiles"])
    ///     .option([Entry::new("tiles"), Entry::colored("edge", "red")])
    ///     .build()?;
    /// // The first option alone, or with the second ("tiles" covered twice).
    /// assert_eq!(problem.count()?, 2);
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    pub fn builder() -> ProblemBuilder {
        ProblemBuilder::default()
    }

    /// The items, primary ones first, in input order.
    ///
    /// ```
    /// let problem = xcover_solver::Problem::parse("A B | x\nA x\nB\n")?;
    /// let names: Vec<&str> = problem.items().iter().map(|i| i.name()).collect();
    /// assert_eq!(names, ["A", "B", "x"]);
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    pub fn items(&self) -> &[Item] {
        &self.inner.items
    }

    /// The number of options (for text, those the engine keeps: an option without a
    /// primary item is dropped, as Knuth's program drops it with a warning).
    ///
    /// ```
    /// let problem = xcover_solver::Problem::parse("A | x\nA\nx\n")?;
    /// assert_eq!(problem.option_count(), 1);
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    pub fn option_count(&self) -> usize {
        self.inner.options.len()
    }

    /// Option `index` (0-based, input order).
    ///
    /// ```
    /// let problem = xcover_solver::Problem::parse("A B | x\nA x:3\nB\n")?;
    /// let first = problem.option(0).unwrap();
    /// assert_eq!(first.to_string(), "A x:3");
    /// assert_eq!(first.items().collect::<Vec<_>>(), [("A", None), ("x", Some("3"))]);
    /// assert!(problem.option(2).is_none());
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    pub fn option(&self, index: usize) -> Option<OptionRef<'_>> {
        (index < self.inner.options.len()).then_some(OptionRef {
            problem: self,
            index,
        })
    }

    /// The search's settings, to change before solving: limits, a seed, threads.
    ///
    /// ```
    /// let problem = xcover_solver::Problem::parse("A\nA\nA\n")?;
    /// assert_eq!(problem.solver().max_solutions(1).count()?, 1);
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    pub fn solver(&self) -> Solver {
        Solver::new(self.clone())
    }

    /// Every solution, in the order of Knuth's program (`self.solver().solutions()`).
    ///
    /// ```
    /// let problem = xcover_solver::Problem::parse("A B\nA\nB\nA B\n")?;
    /// let found: Vec<Vec<usize>> = problem
    ///     .solutions()
    ///     .map(|s| s.map(|s| s.options().to_vec()))
    ///     .collect::<Result<_, _>>()?;
    /// assert_eq!(found, [vec![0, 1], vec![2]]);
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    pub fn solutions(&self) -> Solutions {
        self.solver().solutions()
    }

    /// The number of solutions, found without listing them (`self.solver().count()`).
    ///
    /// ```
    /// let problem = xcover_solver::Problem::parse("A B\nA\nB\nA B\n")?;
    /// assert_eq!(problem.count()?, 2);
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    pub fn count(&self) -> Result<u64, Error> {
        self.solver().count()
    }
}

/// One option of a [`Problem`]: its index and its items' names with their colors. Its
/// `Display` is the option as Knuth's text writes it (`A B x:1`).
///
/// ```
/// let problem = xcover_solver::Problem::parse("A B\nA B\n")?;
/// let option = problem.option(0).unwrap();
/// assert_eq!((option.index(), option.to_string()), (0, "A B".to_string()));
/// # Ok::<(), xcover_solver::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct OptionRef<'p> {
    problem: &'p Problem,
    index: usize,
}

impl<'p> OptionRef<'p> {
    /// The option's index in the problem (0-based, input order).
    ///
    /// ```
    /// let p = xcover_solver::Problem::parse("A B\nA\nB\n")?;
    /// assert_eq!(p.option(1).map(|o| o.index()), Some(1));
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    pub fn index(&self) -> usize {
        self.index
    }

    /// The option's items in input order: `(name, color)`.
    ///
    /// ```
    /// let p = xcover_solver::Problem::parse("A | x y\nA y:c x\n")?;
    /// let items: Vec<_> = p.option(0).unwrap().items().collect();
    /// assert_eq!(items, [("A", None), ("y", Some("c")), ("x", None)]);
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    pub fn items(&self) -> impl Iterator<Item = (&'p str, Option<&'p str>)> + 'p {
        let inner: &'p Inner = &self.problem.inner;
        inner.options[self.index]
            .iter()
            .map(move |(k, color)| (inner.items[*k].name(), color.as_deref()))
    }
}

impl fmt::Display for OptionRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (name, color)) in self.items().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            f.write_str(name)?;
            if let Some(c) = color {
                write!(f, ":{c}")?;
            }
        }
        Ok(())
    }
}

/// One entry of a built option: an item's name and, on a secondary item, an optional
/// color (any string; options agree on a secondary item when their colors are equal).
///
/// ```
/// use xcover_solver::Entry;
///
/// let plain: Entry = "row 1".into();
/// let colored: Entry = ("edge", "red").into();
/// assert_eq!(plain, Entry::new("row 1"));
/// assert_eq!(colored, Entry::colored("edge", "red"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    name: String,
    color: Option<String>,
}

impl Entry {
    /// Item `name`, uncolored.
    pub fn new(name: impl Into<String>) -> Entry {
        Entry {
            name: name.into(),
            color: None,
        }
    }

    /// Secondary item `name` with color `color`.
    pub fn colored(name: impl Into<String>, color: impl Into<String>) -> Entry {
        Entry {
            name: name.into(),
            color: Some(color.into()),
        }
    }
}

impl From<&str> for Entry {
    fn from(name: &str) -> Entry {
        Entry::new(name)
    }
}

impl From<String> for Entry {
    fn from(name: String) -> Entry {
        Entry::new(name)
    }
}

impl From<&String> for Entry {
    fn from(name: &String) -> Entry {
        Entry::new(name.as_str())
    }
}

impl From<(&str, &str)> for Entry {
    fn from((name, color): (&str, &str)) -> Entry {
        Entry::colored(name, color)
    }
}

/// Builds a [`Problem`] in code: items with names of any length (primary ones first in
/// the matrix, whatever the order of the calls), then options naming them. Nothing is
/// checked until [`build`](ProblemBuilder::build), which reports the first mistake with
/// the message Knuth's program gives for the same mistake in text, and the item.
///
/// ```
/// use xcover_solver::{ErrorKind, InputError, Problem};
///
/// let err = Problem::builder().primary("a").option(["a", "a"]).build().unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::Input(InputError::DuplicateItemInOption));
/// assert_eq!(err.item(), Some("a"));
/// ```
#[derive(Clone, Debug, Default)]
pub struct ProblemBuilder {
    items: Vec<Item>,
    options: Vec<Vec<Entry>>,
}

impl ProblemBuilder {
    /// Adds a primary item, covered exactly once.
    ///
    /// ```
    /// let p = xcover_solver::Problem::builder().primary("x").option(["x"]).build()?;
    /// assert_eq!(p.items()[0].bounds(), (1, 1));
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    #[must_use]
    pub fn primary(self, name: impl Into<String>) -> Self {
        self.primary_with_bounds(name, 1, 1)
    }

    /// Adds a primary item covered at least `lo` and at most `hi` times (`0 <= lo <= hi`,
    /// `hi >= 1`).
    ///
    /// ```
    /// let p = xcover_solver::Problem::builder()
    ///     .primary_with_bounds("x", 0, 2)
    ///     .option(["x"])
    ///     .option(["x"])
    ///     .build()?;
    /// assert_eq!(p.count()?, 4); // {}, {1}, {2}, {1, 2}
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    #[must_use]
    pub fn primary_with_bounds(mut self, name: impl Into<String>, lo: u32, hi: u32) -> Self {
        self.items.push(Item::new(name.into(), false, (lo, hi)));
        self
    }

    /// Adds a secondary item: covered at most once, or by options of one color.
    ///
    /// ```
    /// let p = xcover_solver::Problem::builder()
    ///     .primary("a")
    ///     .secondary("s")
    ///     .option(["a", "s"])
    ///     .option(["a"])
    ///     .build()?;
    /// assert_eq!(p.count()?, 2); // `s` may stay uncovered
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    #[must_use]
    pub fn secondary(mut self, name: impl Into<String>) -> Self {
        self.items.push(Item::new(name.into(), true, (0, 0)));
        self
    }

    /// Adds an option: its entries, by item name (`&str`, `String`), or with a color
    /// (`(name, color)`, [`Entry::colored`]).
    ///
    /// ```
    /// use xcover_solver::{Entry, Problem};
    ///
    /// let p = Problem::builder()
    ///     .primary("a")
    ///     .primary("b")
    ///     .secondary("s")
    ///     .option([Entry::new("a"), Entry::colored("s", "red")])
    ///     .option([Entry::new("b"), Entry::colored("s", "red")])
    ///     .build()?;
    /// assert_eq!(p.count()?, 1); // both options agree on `s`
    /// # Ok::<(), xcover_solver::Error>(())
    /// ```
    #[must_use]
    pub fn option<I>(mut self, entries: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<Entry>,
    {
        self.options
            .push(entries.into_iter().map(Into::into).collect());
        self
    }

    /// The problem, or the first mistake: an empty or repeated name, bounds with `hi = 0`
    /// or `lo > hi`, no items, an unknown item or one named twice in an option, a color on
    /// a primary item, an empty color, more than 249 colors on one item, or more items or
    /// entries than Knuth's limits (10000 items).
    ///
    /// ```
    /// let err = xcover_solver::Problem::builder().build().unwrap_err();
    /// assert_eq!(err.message(), "No items");
    /// ```
    pub fn build(self) -> Result<Problem, Error> {
        let input = |kind: InputError, name: &str| Error::input(kind).with_item(name);
        if self.items.is_empty() {
            return Err(Error::input(InputError::NoItems));
        }
        // Primary items first, as the engine takes them.
        let mut items: Vec<Item> = self
            .items
            .iter()
            .filter(|i| !i.secondary)
            .cloned()
            .collect();
        items.extend(self.items.iter().filter(|i| i.secondary).cloned());
        let mut index = HashMap::with_capacity(items.len());
        for (k, item) in items.iter().enumerate() {
            if item.name.is_empty() {
                return Err(input(InputError::ItemNameEmpty, ""));
            }
            let (lo, hi) = item.bounds;
            if !item.secondary && hi == 0 {
                return Err(input(InputError::UpperBoundZero, &item.name));
            }
            if lo > hi {
                return Err(input(InputError::LowerExceedsUpper, &item.name));
            }
            if index.insert(item.name.as_str(), k).is_some() {
                return Err(input(InputError::DuplicateItemName, &item.name));
            }
        }
        // Colors become one byte per (item, color): any byte but white space and NUL.
        let color_bytes: Vec<u8> = (1..=255u8)
            .filter(|c| !matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r'))
            .collect();
        let mut colors: HashMap<(usize, &str), u8> = HashMap::new();
        let mut used = vec![0usize; items.len()];
        let mut options = Vec::with_capacity(self.options.len());
        let mut spec = Vec::with_capacity(self.options.len());
        let mut kept = Vec::new();
        for (j, option) in self.options.iter().enumerate() {
            let mut entries: Entries = Vec::with_capacity(option.len());
            let mut coded = Vec::with_capacity(option.len());
            for entry in option {
                let Some(&k) = index.get(entry.name.as_str()) else {
                    return Err(input(InputError::UnknownItemName, &entry.name));
                };
                if entries.iter().any(|&(q, _)| q == k) {
                    return Err(input(InputError::DuplicateItemInOption, &entry.name));
                }
                let byte = match entry.color.as_deref() {
                    None => 0,
                    Some(_) if !items[k].secondary => {
                        return Err(input(InputError::PrimaryColored, &entry.name));
                    }
                    Some("") => {
                        return Err(
                            Error::new(ErrorKind::Builder, "Empty color").with_item(&entry.name)
                        );
                    }
                    Some(color) => match colors.get(&(k, color)) {
                        Some(&b) => b,
                        None => {
                            let Some(&b) = color_bytes.get(used[k]) else {
                                return Err(Error::new(
                                    ErrorKind::Builder,
                                    "Too many colors on one item",
                                )
                                .with_item(&entry.name));
                            };
                            used[k] += 1;
                            colors.insert((k, color), b);
                            b
                        }
                    },
                };
                entries.push((k, entry.color.clone()));
                coded.push((k, byte));
            }
            if entries.iter().any(|&(k, _)| !items[k].secondary) {
                kept.push(j);
            }
            options.push(entries);
            spec.push(coded);
        }
        let inner = Inner {
            source: Source::Built(Spec { options: spec }),
            items,
            options,
            kept,
        };
        engine::check(&inner)?;
        Ok(Problem {
            inner: Arc::new(inner),
        })
    }
}
