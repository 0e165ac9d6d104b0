//! What distinguishes one kind of durable file from another, and the layer's fixed bound.

/// The longest frame line: a 16-byte tag, a 20-digit length, two crcs, spaces, newline.
pub(crate) const MAX_FRAME_LINE: usize = 64;

/// What distinguishes one kind of durable file from another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Format {
    /// The first word of the magic line, e.g. `xcover-dlx3-part`.
    pub magic: &'static str,
    /// The format version (the magic line's second word).
    pub version: u32,
    /// The largest payload a record of this format may have (the header's included).
    pub max_record: u64,
    /// Closed formats end with a trailer (`end`) frame; open ones (journals) do not.
    pub closed: bool,
    /// What a person calls this kind of file in a message: `part`, `journal`.
    pub noun: &'static str,
}
