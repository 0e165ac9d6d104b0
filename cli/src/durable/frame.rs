//! One frame: its line `<tag> <len> <crc> <lcrc>` and the chained CRC-32C.
