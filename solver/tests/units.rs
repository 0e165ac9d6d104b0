//! The unit driver (`xcover_solver::units`): records in unit order whatever order the
//! workers finish in, the window, the walk's own units, the interrupt.
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use xcover_solver::units::{Fetched, Pool, Worker};

/// Units finished in a scrambled order (a unit's "work" takes longer the smaller its
/// number modulo 7) are handed to the walk in unit order, each with its own record.
#[test]
fn records_come_in_unit_order() {
    for poll in [None, Some(Duration::from_millis(2))] {
        let mut pool = Pool::new(3);
        if let Some(p) = poll {
            pool = pool.poll(p);
        }
        let got = pool
            .run(
                |w: &Worker<'_, u64>| {
                    while let Some(k) = w.claim() {
                        if k >= 40 {
                            break;
                        }
                        std::thread::sleep(Duration::from_micros(300 * (7 - k % 7)));
                        w.finish(k + 1000);
                    }
                },
                |walk| (0..40).map(|k| walk.fetch(k)).collect::<Vec<_>>(),
            )
            .unwrap();
        let want: Vec<_> = (0..40).map(|k| Fetched::Record(k + 1000)).collect();
        assert_eq!(got, want, "poll {poll:?}");
    }
}

/// A worker never claims a unit `window` or more past the unit the walk is at.
#[test]
fn the_window_bounds_the_claims() {
    let walk_at = AtomicU64::new(0);
    let beyond = AtomicBool::new(false);
    Pool::new(2)
        .window(4)
        .run(
            |w: &Worker<'_, ()>| {
                while let Some(k) = w.claim() {
                    if k >= 4 + walk_at.load(Ordering::SeqCst) {
                        beyond.store(true, Ordering::SeqCst);
                    }
                    if k >= 30 {
                        break;
                    }
                    w.finish(());
                }
            },
            |walk| {
                for k in 0..30 {
                    // Set before the fetch moves the window, so a claim never sees it late.
                    walk_at.store(k, Ordering::SeqCst);
                    assert_eq!(walk.fetch(k), Fetched::Record(()));
                    std::thread::sleep(Duration::from_millis(1));
                }
            },
        )
        .unwrap();
    assert!(!beyond.load(Ordering::SeqCst));
}

/// With `walk_explores_unclaimed`, a unit no worker has claimed is the walk's at once
/// (and no worker claims it after); without, the walk waits for a worker to claim it.
#[test]
fn the_walk_explores_units_nobody_claimed() {
    let release = AtomicBool::new(false);
    let claimed = std::sync::Mutex::new(Vec::new());
    let work = |w: &Worker<'_, u64>| {
        // Held back until the walk has passed unit 5.
        while !release.load(Ordering::SeqCst) && !w.is_over() {
            std::thread::yield_now();
        }
        while let Some(k) = w.claim() {
            claimed.lock().unwrap().push(k);
            if k >= 8 {
                break;
            }
            w.finish(k);
        }
    };
    let got = Pool::new(1)
        .walk_explores_unclaimed()
        .run(work, |walk| {
            let first = walk.fetch(5);
            release.store(true, Ordering::SeqCst);
            // Once the worker has claimed 6 and 7, the walk waits for their records.
            while claimed.lock().unwrap().len() < 2 {
                std::thread::yield_now();
            }
            (first, walk.fetch(6), walk.fetch(7))
        })
        .unwrap();
    assert_eq!(
        got,
        (Fetched::Explore, Fetched::Record(6), Fetched::Record(7))
    );
    assert_eq!(
        claimed.lock().unwrap()[0],
        6,
        "units up to 5 were the walk's"
    );

    release.store(false, Ordering::SeqCst);
    claimed.lock().unwrap().clear();
    let got = Pool::new(1)
        .run(work, |walk| {
            release.store(true, Ordering::SeqCst);
            walk.fetch(5)
        })
        .unwrap();
    assert_eq!(got, Fetched::Record(5));
}

/// A unit workers never claim (outside `only`) is the walk's at once; the interrupt ends
/// a wait with `Interrupted`.
#[test]
fn units_outside_the_list_and_the_interrupt() {
    let stop = AtomicBool::new(false);
    let interrupted = || stop.load(Ordering::SeqCst);
    let got = Pool::new(1)
        .only([3, 9])
        .interrupted(&interrupted)
        .run(
            |w: &Worker<'_, u64>| {
                // Claims unit 3 and never finishes it while the walk runs.
                let _ = w.claim();
                while !w.is_over() {
                    std::thread::sleep(Duration::from_millis(1));
                }
            },
            |walk| {
                let outside = walk.fetch(2);
                stop.store(true, Ordering::SeqCst);
                (outside, walk.fetch(3))
            },
        )
        .unwrap();
    assert_eq!(got, (Fetched::Explore, Fetched::Interrupted));
}

/// Every unit a worker leaves unfinished (it fails inside, or ends) is the walk's.
#[test]
fn failed_units_are_the_walks() {
    let got = Pool::new(2)
        .starting_at(10)
        .run(
            |w: &Worker<'_, u64>| {
                while let Some(k) = w.claim() {
                    if k >= 20 {
                        break;
                    }
                    if k % 3 != 0 {
                        w.finish(k);
                    }
                }
            },
            |walk| (10..20).map(|k| walk.fetch(k)).collect::<Vec<_>>(),
        )
        .unwrap();
    let want: Vec<_> = (10..20)
        .map(|k| match k % 3 {
            0 => Fetched::Explore,
            _ => Fetched::Record(k),
        })
        .collect();
    assert_eq!(got, want);
}
