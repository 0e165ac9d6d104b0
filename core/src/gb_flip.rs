//! Knuth's portable subtractive random number generator GB_FLIP (Stanford GraphBase).
//!
//! The state is 55 words plus a sentinel; values are 31-bit. The sequence is identical to
//! `gb_init_rand` / `gb_next_rand` / `gb_unif_rand` of the C original for every seed,
//! which DLX3 relies on for its randomized runs (`s<seed>`).

/// Size of the state array: the sentinel `A[0]` plus 55 words.
const STATE: usize = 56;

/// `(x - y) & 0x7fffffff` in two's complement: the subtraction modulo 2^31.
#[inline]
const fn md(x: i32, y: i32) -> i32 {
    x.wrapping_sub(y) & 0x7fff_ffff
}

/// The generator state.
///
/// ```
/// use xcover_core::gb_flip::GbFlip;
///
/// let mut a = GbFlip::new(-314159);
/// let first = a.next();
/// let mut b = GbFlip::new(-314159);
/// assert_eq!(b.next(), first); // the seed fixes the sequence
/// assert!(a.unif(10) < 10);
/// a.init(-314159);
/// assert_eq!(a.next(), first);
/// ```
#[derive(Clone, Debug)]
pub struct GbFlip {
    /// `a[0]` is a permanent sentinel `-1`; `a[1..=55]` hold the 31-bit state.
    a: [i32; STATE],
    /// Index of the next value to deliver (counts down to the sentinel).
    f: usize,
}

impl Default for GbFlip {
    fn default() -> Self {
        Self::new(0)
    }
}

/// The body of `gb_init_rand(seed)` on the generator `$g` (a place: `self` or a local).
///
/// A macro rather than a `const fn(&mut self)`: mutable references in `const fn` need
/// Rust 1.83, and core builds with 1.81; [`GbFlip::new`] (a `const fn`, used in constants)
/// and [`GbFlip::init`] (in place, no copy of the state on the stack) share this one text.
macro_rules! seed_state {
    ($g:expr, $seed:expr) => {{
        $g.a[0] = -1;
        let mut prev = md($seed, 0);
        let mut s = prev;
        let mut next = 1;
        $g.a[55] = prev;
        // The walk i -> i + 21 (mod 55) sets every entry 1..=54 once: nothing of the
        // earlier state is left.
        let mut i = 21;
        while i != 0 {
            $g.a[i] = next;
            next = md(prev, next);
            if s & 1 != 0 {
                s = 0x4000_0000 + (s >> 1);
            } else {
                s >>= 1;
            }
            next = md(next, s);
            prev = $g.a[i];
            i = (i + 21) % 55;
        }
        let mut k = 0;
        while k < 5 {
            refill!($g);
            k += 1;
        }
    }};
}

/// The body of `gb_flip_cycle` on `$g`: refills the state, evaluates to the first new
/// value (a macro for the reason given at [`seed_state`]).
macro_rules! refill {
    ($g:expr) => {{
        let mut i = 1;
        while i <= 24 {
            $g.a[i] = md($g.a[i], $g.a[i + 31]);
            i += 1;
        }
        while i <= 55 {
            $g.a[i] = md($g.a[i], $g.a[i - 24]);
            i += 1;
        }
        $g.f = 54;
        $g.a[55]
    }};
}

impl GbFlip {
    /// A generator seeded with `seed` (what `gb_init_rand(seed)` does).
    pub const fn new(seed: i32) -> Self {
        let mut g = GbFlip {
            a: [0; STATE],
            f: 0,
        };
        seed_state!(g, seed);
        g
    }

    /// Re-seeds this generator (`gb_init_rand`), in place (no copy of the state on the
    /// stack).
    pub fn init(&mut self, seed: i32) {
        seed_state!(self, seed);
    }

    /// Refills the state (`gb_flip_cycle`) and returns the first new value.
    fn cycle(&mut self) -> i32 {
        refill!(self)
    }

    /// The next 31-bit random value (`gb_next_rand`).
    #[inline]
    #[allow(clippy::should_implement_trait)] // Knuth's name; the generator is not an iterator
    pub fn next(&mut self) -> i32 {
        let v = self.a[self.f];
        if v >= 0 {
            self.f -= 1;
            v
        } else {
            self.cycle()
        }
    }

    /// Makes `count` draws `unif(m)` whose values are not needed, each `m` at most
    /// `max_m`, if the state holds `count` more values (no refill due) and each is below
    /// `2^31 - max_m`, hence below `unif(m)`'s limit `2^31 - 2^31 % m`: each draw then
    /// takes exactly one value, as `count` calls of [`unif`](GbFlip::unif) would. Returns
    /// whether it did; otherwise the state is unchanged.
    #[inline(always)]
    pub fn skip_unifs(&mut self, count: usize, max_m: u32) -> bool {
        // The values still to deliver are `a[f]`, `a[f - 1]`, ..., `a[1]`.
        if count > self.f {
            return false;
        }
        let limit = 0x8000_0000u32.saturating_sub(max_m);
        let values = &self.a[self.f + 1 - count..=self.f];
        // Values are in `0..2^31`, so the casts are lossless.
        if values.iter().any(|&v| v as u32 >= limit) {
            return false;
        }
        self.f -= count;
        true
    }

    /// A uniform value in `0..m` (`gb_unif_rand`); `m` must be at least 1 (0 is treated as 1).
    pub fn unif(&mut self, m: u32) -> u32 {
        let m = m.max(1);
        const TWO31: u32 = 0x8000_0000;
        let t = TWO31 - (TWO31 % m);
        loop {
            // `next` is always in 0..2^31, so the cast is lossless.
            let r = self.next() as u32;
            if r < t {
                return r % m;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::GbFlip;

    fn nexts<const N: usize>(seed: i32) -> [i32; N] {
        let mut g = GbFlip::new(seed);
        core::array::from_fn(|_| g.next())
    }

    #[test]
    fn next_vectors() {
        assert_eq!(
            nexts::<20>(0),
            [
                2029883356, 2073281797, 759676350, 50666240, 1904092501, 1645132104, 1395464537,
                853356131, 280686409, 1467323024, 648187600, 1122939955, 1732192666, 1903542892,
                909631680, 2101978060, 1172661536, 1878878809, 1560974109, 1163472589
            ]
        );
        assert_eq!(
            nexts::<20>(1),
            [
                275547501, 20608703, 63752066, 1189259106, 1757208357, 548809734, 885249494,
                884324079, 1989086358, 1934100414, 627343741, 1158976115, 207463160, 620009667,
                539105145, 2067724448, 1035434755, 54100309, 1531111581, 1394077438
            ]
        );
        assert_eq!(
            nexts::<20>(42),
            [
                825002197, 1972216257, 432066027, 1518533476, 935845656, 1451020980, 1443311897,
                1241595403, 677423506, 1587610170, 1829485389, 1890871792, 1356967623, 2091123796,
                792314616, 1371221151, 1578868040, 90980365, 1314669311, 1684180833
            ]
        );
        assert_eq!(nexts::<1>(-314159), [119318998]);
        let v = nexts::<105>(1);
        assert_eq!(
            &v[100..],
            &[1606035377, 609300237, 2093632140, 1755072528, 1742956045]
        );
    }

    fn unifs(seed: i32, m: u32) -> [u32; 20] {
        let mut g = GbFlip::new(seed);
        core::array::from_fn(|_| g.unif(m))
    }

    #[test]
    fn unif_vectors() {
        assert_eq!(unifs(42, 1), [0; 20]);
        assert_eq!(
            unifs(42, 2),
            [1, 1, 1, 0, 0, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 1, 0, 1, 1, 1]
        );
        assert_eq!(
            unifs(42, 3),
            [1, 0, 0, 1, 0, 0, 2, 1, 1, 0, 0, 1, 0, 1, 0, 0, 2, 1, 2, 0]
        );
        assert_eq!(
            unifs(42, 10),
            [7, 7, 7, 6, 6, 0, 7, 3, 6, 0, 9, 2, 3, 6, 6, 1, 0, 5, 1, 3]
        );
        let mut g = GbFlip::new(12345);
        let ks: [u32; 20] = core::array::from_fn(|k| g.unif(k as u32 + 1));
        assert_eq!(
            ks,
            [0, 0, 0, 2, 2, 2, 4, 2, 2, 4, 9, 8, 7, 10, 4, 14, 6, 16, 18, 12]
        );
        let mut g = GbFlip::new(0);
        let big: [u32; 5] = core::array::from_fn(|_| g.unif(0x5555_5555));
        assert_eq!(big, [759676350, 50666240, 1395464537, 853356131, 280686409]);
    }

    #[test]
    fn skip_unifs_is_unif_discarded() {
        for seed in [0, 1, 42, -314159] {
            let mut a = GbFlip::new(seed);
            let mut b = GbFlip::new(seed);
            for step in 0..400u32 {
                let count = (step % 7) as usize;
                let max_m = 2 + step % 5;
                let before = (a.a, a.f);
                if a.skip_unifs(count, max_m) {
                    for k in 0..count {
                        b.unif(2 + (k as u32 + step) % (max_m - 1));
                    }
                } else {
                    assert_eq!((a.a, a.f), before, "refused, yet changed");
                    assert!(count > a.f, "refused with values left");
                    for _ in 0..count {
                        a.unif(max_m);
                        b.unif(max_m);
                    }
                }
                assert_eq!(a.next(), b.next(), "seed {seed} step {step}");
            }
        }
        // A value at or above 2^31 - max_m is refused (unif(m) might reject it).
        let mut g = GbFlip::new(0);
        g.a[g.f] = 0x7fff_fff0;
        assert!(!g.skip_unifs(1, 16));
        assert!(g.skip_unifs(1, 15));
    }

    #[test]
    fn init_reseeds() {
        let mut g = GbFlip::new(7);
        g.next();
        g.init(0);
        assert_eq!(g.next(), 2029883356);
    }
}
