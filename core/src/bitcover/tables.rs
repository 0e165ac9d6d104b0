//! The tables a [`BitCover`](super::BitCover) searches with, computed once from the
//! problem: each primary item's options, each option's primary items, and each option's
//! conflicts.
use super::layout::{Matrix, WorkspaceView, WORD_BITS};

/// Sets bit `j`.
#[inline(always)]
pub(super) fn set<const W: usize>(bits: &mut [u64; W], j: usize) {
    bits[j / WORD_BITS] |= 1 << (j % WORD_BITS);
}

/// Whether bit `j` is set.
#[inline(always)]
fn has<const W: usize>(bits: &[u64; W], j: usize) -> bool {
    bits[j / WORD_BITS] >> (j % WORD_BITS) & 1 != 0
}

/// The color option `j` gives item `k`, or `None` if it does not contain it.
fn color_of(m: &Matrix<'_>, j: usize, k: usize) -> Option<i32> {
    m.option(j)
        .iter()
        .find(|&&(i, _)| i as usize == k)
        .map(|&(_, c)| c)
}

/// The spare count's number, which pads each option's primary items.
pub(super) const SPARE: u8 = 255;

/// Fills `ws.item_options`, `ws.prims` and `ws.conflicts` from `m` (checked by
/// [`Layout::of`](super::Layout::of), giving `stride`, and `ws` long enough).
pub(super) fn fill<const W: usize>(ws: &mut WorkspaceView<'_, W>, m: &Matrix<'_>, stride: usize) {
    let options = m.options();
    ws.item_options[..m.primary].fill([0; W]);
    ws.prims[..options * stride].fill(SPARE);
    for j in 0..options {
        let mut n = j * stride;
        for &(k, _) in m.option(j) {
            let k = k as usize;
            if k < m.primary {
                set(&mut ws.item_options[k], j);
                ws.prims[n] = k as u8;
                n += 1;
            }
        }
    }
    // Sharing a primary item.
    for j in 0..options {
        let mut c = [0; W];
        for &k in &ws.prims[j * stride..(j + 1) * stride] {
            if k != SPARE {
                let with = &ws.item_options[usize::from(k)];
                for w in 0..W {
                    c[w] |= with[w];
                }
            }
        }
        ws.conflicts[j] = c;
    }
    // Sharing a secondary item, unless both give it the same color: per item, the
    // options that contain it, then per color the options that give it that color.
    for k in m.primary..m.items {
        let mut with = [0u64; W];
        for j in 0..options {
            if color_of(m, j, k).is_some() {
                set(&mut with, j);
            }
        }
        let mut done = [0u64; W];
        for j in 0..options {
            let Some(color) = color_of(m, j, k) else {
                continue;
            };
            if has(&done, j) {
                continue;
            }
            // The options that agree with `j` on `k` (only `j` itself when uncolored).
            let mut same = [0u64; W];
            set(&mut same, j);
            if color != 0 {
                for i in j + 1..options {
                    if has(&with, i) && color_of(m, i, k) == Some(color) {
                        set(&mut same, i);
                    }
                }
            }
            for i in 0..options {
                if has(&same, i) {
                    let c = &mut ws.conflicts[i];
                    for w in 0..W {
                        c[w] |= with[w] & !same[w];
                    }
                }
            }
            for w in 0..W {
                done[w] |= same[w];
            }
        }
    }
}
