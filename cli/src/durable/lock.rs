//! Advisory whole-file locks (`flock`): one writer at a time, no reader while it writes.
