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

impl GbFlip {
    /// A generator seeded with `seed` (what `gb_init_rand(seed)` does).
    pub const fn new(seed: i32) -> Self {
        let mut g = GbFlip {
            a: [0; STATE],
            f: 0,
        };
        g.a[0] = -1;
        let mut prev = md(seed, 0);
        let mut s = prev;
        let mut next = 1;
        g.a[55] = prev;
        let mut i = 21;
        while i != 0 {
            g.a[i] = next;
            next = md(prev, next);
            if s & 1 != 0 {
                s = 0x4000_0000 + (s >> 1);
            } else {
                s >>= 1;
            }
            next = md(next, s);
            prev = g.a[i];
            i = (i + 21) % 55;
        }
        let mut k = 0;
        while k < 5 {
            g.cycle();
            k += 1;
        }
        g
    }

    /// Re-seeds this generator (`gb_init_rand`).
    pub fn init(&mut self, seed: i32) {
        *self = Self::new(seed);
    }

    /// Refills the state (`gb_flip_cycle`) and returns the first new value.
    const fn cycle(&mut self) -> i32 {
        let mut i = 1;
        while i <= 24 {
            self.a[i] = md(self.a[i], self.a[i + 31]);
            i += 1;
        }
        while i <= 55 {
            self.a[i] = md(self.a[i], self.a[i - 24]);
            i += 1;
        }
        self.f = 54;
        self.a[55]
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

    /// Whether `unif(m)` would return 0, drawing exactly the values it draws (DLX3's
    /// random tie break needs only that). Hosted builds avoid both of `unif`'s divisions
    /// when `m < ZERO_TEST_LEN`: a draw `r <= 2^31 - m` is always below `unif`'s limit
    /// `2^31 - 2^31 % m` (the remainder is less than `m`), and then `r % m == 0` is
    /// Lemire's multiply-and-compare test with [`ZERO_TEST`]. Only a draw in the top `m`
    /// values takes `unif`'s own path. Firmware builds (`target_os = "none"`) keep `unif`,
    /// so the table adds no text there.
    #[inline(always)]
    pub fn unif_is_zero(&mut self, m: u32) -> bool {
        if cfg!(target_os = "none") || m as usize >= ZERO_TEST_LEN {
            return self.unif(m) == 0;
        }
        let m = m.max(1);
        let c = ZERO_TEST[m as usize];
        // `next` is always in 0..2^31, so the cast is lossless.
        let r = self.next() as u32;
        if r <= 0x8000_0000 - m {
            zero_mod(r, c)
        } else {
            self.unif_is_zero_top(m, r)
        }
    }

    /// A [`TieDraws`] drawing from this generator (in hosted builds with the index of the
    /// next value in a register until [`TieDraws::finish`]).
    #[inline(always)]
    pub fn tie_draws(&mut self) -> TieDraws<'_> {
        let f = self.f;
        TieDraws { g: self, f }
    }

    /// The rest of [`unif_is_zero`](GbFlip::unif_is_zero) after a first draw `r` in the
    /// top `m` values: as `unif` (reject at or above its limit, draw again).
    #[cold]
    #[inline(never)]
    fn unif_is_zero_top(&mut self, m: u32, r: u32) -> bool {
        let t = 0x8000_0000 - (0x8000_0000 % m);
        if r < t {
            r % m == 0
        } else {
            self.unif(m) == 0
        }
    }
}

/// Draws for DLX3's random tie breaks that do not branch on whether an item ties or on
/// the draw's answer (both are data: branches on them mispredict). Holds the index of the
/// next value; [`finish`](TieDraws::finish) stores it back.
pub struct TieDraws<'g> {
    g: &'g mut GbFlip,
    f: usize,
}

impl TieDraws<'_> {
    /// `tied && unif(m) == 0`, drawing only if `tied`. In hosted builds the next value is
    /// read whether or not it is drawn, and consumed (the index moved) only if `tied`; the
    /// answer is [`zero_mod`]'s. Only when the value read is the sentinel or in the top
    /// [`ZERO_TEST_LEN`] values, or `m` is past the table (rare, and whether or not
    /// `tied`, so that the test does not depend on `tied`), does it branch off to
    /// [`cold`](TieDraws::cold).
    #[inline(always)]
    pub fn is_zero(&mut self, tied: bool, m: u32) -> bool {
        if cfg!(target_os = "none") {
            if !tied {
                return false;
            }
            self.g.f = self.f;
            let z = self.g.unif(m) == 0;
            self.f = self.g.f;
            return z;
        }
        let r = self.g.a[self.f] as u32; // the sentinel -1 becomes 2^32 - 1
        if r > 0x8000_0000 - ZERO_TEST_LEN as u32 || m >= ZERO_TEST_LEN as u32 {
            return self.cold(tied, m);
        }
        self.f -= usize::from(tied);
        tied & zero_mod(r, ZERO_TEST[m as usize % ZERO_TEST_LEN])
    }

    /// The rare cases of [`is_zero`](TieDraws::is_zero): if `tied`, [`GbFlip::unif_is_zero`]
    /// (which draws that same value); if not, nothing is drawn, but at the sentinel the
    /// state is refilled as the next draw would refill it (`cycle` delivers `a[55]` and
    /// goes on at `a[54]`, which is what index 55 does), so that the next call reads a
    /// value.
    #[cold]
    #[inline(never)]
    fn cold(&mut self, tied: bool, m: u32) -> bool {
        if !tied {
            if self.g.a[self.f] < 0 {
                self.g.cycle();
                self.f = 55;
            }
            return false;
        }
        self.g.f = self.f;
        let z = self.g.unif_is_zero(m);
        self.f = self.g.f;
        z
    }

    /// Stores the index back into the generator.
    #[inline(always)]
    pub fn finish(self) {
        self.g.f = self.f;
    }
}

/// Moduli below this take the table path of [`GbFlip::unif_is_zero`].
const ZERO_TEST_LEN: usize = 64;

/// `ZERO_TEST[m] = ceil(2^64 / m)` (wrapping to 0 for `m` = 0 and 1, for which
/// [`zero_mod`] then always says yes, as `r % 1 == 0`).
const ZERO_TEST: [u64; ZERO_TEST_LEN] = {
    let mut t = [0u64; ZERO_TEST_LEN];
    let mut m = 2;
    while m < ZERO_TEST_LEN {
        t[m] = u64::MAX / m as u64 + 1;
        m += 1;
    }
    t
};

/// `r % m == 0` for `c = ceil(2^64 / m)` and any 32-bit `r` (Lemire, Kaser and Kurz,
/// "Faster remainder by direct computation", 2019): `r * c mod 2^64` is `(r % m) * c`
/// up to an error below `c`, so it is below `c` exactly when the remainder is 0.
#[inline(always)]
const fn zero_mod(r: u32, c: u64) -> bool {
    (r as u64).wrapping_mul(c) <= c.wrapping_sub(1)
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
    fn unif_is_zero_matches_unif() {
        // The divisibility test against `%` for every tabled modulus, on the values
        // near multiples, near 2^31 and spread over the range.
        for m in 1..super::ZERO_TEST_LEN as u32 {
            let c = super::ZERO_TEST[m as usize];
            let check = |r: u32| assert_eq!(super::zero_mod(r, c), r % m == 0, "{r} % {m}");
            for r in (0..1 << 20).chain((1u32 << 31) - (1 << 16)..1 << 31) {
                check(r);
            }
            for k in 0..1u32 << 16 {
                let r = k.wrapping_mul(0x9e37_79b9) >> 1;
                for d in 0..3 {
                    check((r / m * m).wrapping_add(d) & 0x7fff_ffff);
                }
            }
        }
        // The same draws and the same answers as `unif` on real streams, with moduli
        // below and above the table's length.
        for seed in [0, 1, 42, -314159] {
            let (mut a, mut b) = (GbFlip::new(seed), GbFlip::new(seed));
            for k in 0..200_000u32 {
                let m = k % 80 + (k / 80) % 3 * 0x2aaa_aaaa;
                assert_eq!(a.unif_is_zero(m), b.unif(m) == 0, "seed {seed} m {m}");
            }
            assert_eq!(a.next(), b.next());
        }
        // `TieDraws::is_zero` draws only when tied, and as `unif` does.
        for seed in [0, 3, -314159] {
            let (mut a, mut b) = (GbFlip::new(seed), GbFlip::new(seed));
            for k in 0..200_000u32 {
                let tied = k % 3 != 1;
                let m = k % 90 + (k / 90) % 2 * 0x4000_0001;
                let want = tied && b.unif(m) == 0;
                let mut t = a.tie_draws();
                assert_eq!(t.is_zero(tied, m), want, "seed {seed} k {k}");
                t.finish();
            }
            assert_eq!(a.next(), b.next());
        }
        // Draws in the top `m` values (too rare to meet in a stream): below `unif`'s
        // limit, at it (drawn again) and above it.
        for m in [2u32, 3, 7, 48, 63] {
            for top in 0..m {
                let mut a = GbFlip::new(5);
                a.a[a.f] = 0x7fff_ffff - top as i32;
                let (mut b, mut c) = (a.clone(), a.clone());
                let want = b.unif(m) == 0;
                assert_eq!(a.unif_is_zero(m), want, "m {m} top {top}");
                let mut t = c.tie_draws();
                assert_eq!(t.is_zero(true, m), want, "m {m} top {top}");
                t.finish();
                let next = b.next();
                assert_eq!(a.next(), next);
                assert_eq!(c.next(), next);
            }
        }
    }

    #[test]
    fn init_reseeds() {
        let mut g = GbFlip::new(7);
        g.next();
        g.init(0);
        assert_eq!(g.next(), 2029883356);
    }
}
