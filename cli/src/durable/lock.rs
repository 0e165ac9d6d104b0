//! Advisory whole-file locks (`flock`): one writer at a time, no reader while it writes.
//! The lock goes with the open file: it is released when the file is closed, also when
//! the process is killed.
use std::fs::File;
use std::os::fd::AsRawFd;

/// Takes an exclusive lock without waiting: `Ok(false)` when another open file holds one.
pub(super) fn exclusive(file: &File) -> std::io::Result<bool> {
    flock(file, libc::LOCK_EX)
}

/// Takes a shared lock without waiting: `Ok(false)` when a writer holds the file.
pub(super) fn shared(file: &File) -> std::io::Result<bool> {
    flock(file, libc::LOCK_SH)
}

fn flock(file: &File, operation: libc::c_int) -> std::io::Result<bool> {
    // SAFETY: flock takes a descriptor that `file` keeps open for the call and an
    // operation; it touches no memory of ours.
    let result = unsafe { libc::flock(file.as_raw_fd(), operation | libc::LOCK_NB) };
    if result == 0 {
        return Ok(true);
    }
    let error = std::io::Error::last_os_error();
    if error.raw_os_error() == Some(libc::EWOULDBLOCK) {
        Ok(false)
    } else {
        Err(error)
    }
}
