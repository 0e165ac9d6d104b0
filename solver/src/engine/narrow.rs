//! The search that counts nothing, on a copy of the matrix with 16-bit links when they
//! hold it: nodes of 8 bytes instead of 16, which the dancing steps index without a
//! shift, and half the memory. 12-16 % fewer instructions on queens 13, the 6x6 tiles
//! and Langford 12 (docs/PERFORMANCE.md); the same moves, solutions, nodes and stops
//! (core's tests of preloaded images with 16-bit links, and this crate's conformance
//! test, which runs every case of the corpus uncounted).
use xcover_core::dlx3::image::{Item, Level, Node};
use xcover_core::dlx3::{Dlx3, Dlx3Error, Name, WorkspaceView};

/// A loaded engine's matrix with 16-bit links, and levels for its search.
pub(super) struct Narrow {
    items: Vec<Item<u16>>,
    nodes: Vec<Node<u16>>,
    names: Vec<Name>,
    levels: Vec<Level>,
}

impl Narrow {
    /// The matrix of `e` (loaded, not searched yet) and `levels` levels, or `None` if
    /// some record does not fit 16 bits (`Item::narrow`, `Node::narrow`).
    pub(super) fn of(e: &Dlx3<'_>, levels: usize) -> Option<Self> {
        let mut items: Vec<Item<u16>> = e
            .items()
            .iter()
            .map(|&i| Item::narrow(i))
            .collect::<Option<_>>()?;
        let mut nodes: Vec<Node<u16>> = e
            .nodes()
            .iter()
            .map(|&n| Node::narrow(n))
            .collect::<Option<_>>()?;
        // A spare record each, as the engine's own storage has past its last item and
        // node (`Dlx3::preloaded` checks for it).
        items.push(Item::ZERO);
        nodes.push(Node::ZERO);
        let names = (0..items.len() as u32).map(|k| e.item_name(k)).collect();
        Some(Narrow {
            items,
            nodes,
            names,
            levels: vec![Level::ZERO; levels],
        })
    }

    /// An engine over the copy, with the settings and layout of `e`, ready to search.
    pub(super) fn engine(&mut self, e: &Dlx3<'_>) -> Result<Dlx3<'_, u16>, Dlx3Error> {
        let view = WorkspaceView::with_shared_names(
            &mut self.items,
            &self.names,
            &mut self.nodes,
            &mut self.levels,
        );
        Dlx3::preloaded(view, *e.settings(), e.layout())
    }
}

#[cfg(test)]
mod tests {
    use super::super::{describe_text, settings, with_engine, MAX_LEVEL};
    use super::Narrow;
    use crate::Problem;

    /// `text`'s problem: whether its matrix fits 16-bit links, and its solutions counted
    /// uncounted (through the copy when it fits) and counted (never through it).
    fn narrowed_and_counts(text: &str) -> (bool, u64, u64) {
        let inner = describe_text(text.as_bytes()).expect("reads");
        let fits = with_engine(&inner, settings(None), |e| {
            Ok(Narrow::of(e, MAX_LEVEL).is_some())
        })
        .expect("loads");
        let problem = Problem::from_reader(text.as_bytes()).expect("reads");
        let counted = problem.solver().run().expect("runs").solutions;
        (fits, problem.count().expect("runs"), counted)
    }

    #[test]
    fn a_matrix_past_16_bit_links_is_searched_with_32_bit_ones() {
        // Items I0..I19 and `n` options of all of them: 21 nodes an option.
        let problem = |n: usize| {
            let items: Vec<String> = (0..20).map(|k| format!("I{k}")).collect();
            let line = items.join(" ") + "\n";
            line.repeat(n + 1)
        };
        assert_eq!(narrowed_and_counts(&problem(4_000)), (false, 4_000, 4_000));
        assert_eq!(narrowed_and_counts(&problem(1_000)), (true, 1_000, 1_000));
    }
}
