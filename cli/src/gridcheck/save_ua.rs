//! Where `--save-ua F` may write: never over a file the run reads or writes itself (its
//! journal, its grids, its standard output or error, where a part or the puzzles go). The
//! files are compared as files (same device and inode, or the same canonical place for
//! one not created yet), not as spellings of paths.
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use crate::error::{bail, Result};

use super::args::Args;

/// The file a path names: its device and inode when it exists, else its canonical place.
#[derive(PartialEq, Eq, Debug)]
enum FileId {
    Inode(u64, u64),
    Place(PathBuf),
}

/// What `path` names (following symbolic links).
fn file_id(path: &Path) -> Option<FileId> {
    if let Ok(meta) = std::fs::metadata(path) {
        return Some(FileId::Inode(meta.dev(), meta.ino()));
    }
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let dir = std::fs::canonicalize(parent).ok()?;
    Some(FileId::Place(dir.join(path.file_name()?)))
}

/// The device and inode of standard output or error, when it is a file.
fn stream_id(fd: std::os::fd::BorrowedFd<'_>) -> Option<FileId> {
    let file = std::fs::File::from(fd.try_clone_to_owned().ok()?);
    let meta = file.metadata().ok()?;
    meta.is_file()
        .then(|| FileId::Inode(meta.dev(), meta.ino()))
}

/// Refuses `--save-ua target` when it names one of the run's own files; nothing is
/// written then.
pub(super) fn check_target(target: &Path, args: &Args) -> Result<()> {
    use std::os::fd::AsFd;
    let Some(id) = file_id(target) else {
        return Ok(()); // a place that can't be written: saving reports it
    };
    let name = target.display();
    let named = |path: &Option<PathBuf>| path.as_deref().and_then(file_id);
    let clashes = [
        (named(&args.checkpoint), "the --checkpoint journal"),
        (named(&args.file), "the --file of grids"),
        (named(&args.ua_file), "the --ua-file it loads"),
        (
            stream_id(std::io::stdout().as_fd()),
            if args.shard.is_some() {
                "standard output (where the part goes)"
            } else {
                "standard output (where the puzzles go)"
            },
        ),
        (stream_id(std::io::stderr().as_fd()), "standard error"),
    ];
    for (other, what) in clashes {
        if other.as_ref() == Some(&id) {
            bail!("--save-ua {name} is {what}: refused, nothing written; save the UA elsewhere");
        }
    }
    Ok(())
}
