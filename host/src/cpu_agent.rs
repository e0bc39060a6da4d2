//! The CPU's half of the system-scope publication (`layout::system`): CPU
//! threads producing or consuming records in mapped host memory while GPU
//! threads do the other half.
//!
//! Everything here works on plain slices of atomics, so the tests run it
//! against another CPU thread playing the GPU's part through the same
//! atomics; `gpu::system` hands it the host side of the mapped memory.
//!
//! The record's words are `Relaxed` atomics: Rust's closest thing to the
//! GPU's plain `ld`/`st` (a plain access racing the other side would be a
//! data race, undefined in Rust), atomic word by word and ordered by nothing
//! but the flag. The flag is a `Release` store or an `Acquire` load, which
//! are the host's halves of a release/acquire pair with a GPU thread at
//! `.sys` scope, or `Relaxed`, which orders nothing. On x86-64 an `Acquire`
//! load and a `Relaxed` one are the same `mov`: the difference is in what the
//! compiler may move across it, and in what the language promises.

use std::ops::Range;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Instant;

use layout::system::{CpuOrdering, Record, WORDS};

/// A [`Record`] as the host sees mapped memory: the same words, as atomics.
#[repr(C)]
#[derive(Debug, Default)]
pub struct AtomicRecord {
    /// The words.
    pub words: [AtomicU32; WORDS],
}

const _: () = assert!(size_of::<AtomicRecord>() == size_of::<Record>());
const _: () = assert!(align_of::<AtomicRecord>() == align_of::<Record>());

impl AtomicRecord {
    /// Writes `record` word by word, `Relaxed`.
    pub fn store(&self, record: Record) {
        for (word, value) in self.words.iter().zip(record.words) {
            word.store(value, Ordering::Relaxed);
        }
    }

    /// Reads the words one by one, `Relaxed`.
    pub fn load(&self) -> Record {
        Record { words: std::array::from_fn(|k| self.words[k].load(Ordering::Relaxed)) }
    }
}

/// What CPU consumers saw, or what a GPU consumer's counts add up to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct HostCounts {
    /// Slots whose flag was seen and whose record was read.
    pub pairs: u64,
    /// Of those, records that were not the round's.
    pub stale: u64,
    /// Slots whose flag was not seen before the deadline.
    pub timeouts: u64,
}

impl std::ops::AddAssign for HostCounts {
    fn add_assign(&mut self, other: HostCounts) {
        self.pairs += other.pairs;
        self.stale += other.stale;
        self.timeouts += other.timeouts;
    }
}

/// The flag load's ordering for `cpu`.
fn load_order(cpu: CpuOrdering) -> Ordering {
    match cpu {
        CpuOrdering::ReleaseAcquire => Ordering::Acquire,
        CpuOrdering::Relaxed => Ordering::Relaxed,
    }
}

/// The flag store's ordering for `cpu`.
fn store_order(cpu: CpuOrdering) -> Ordering {
    match cpu {
        CpuOrdering::ReleaseAcquire => Ordering::Release,
        CpuOrdering::Relaxed => Ordering::Relaxed,
    }
}

/// The contiguous stripes of `slots` slots that `threads` threads take, in
/// order, the first ones one slot longer when they do not divide evenly.
/// Contiguous stripes keep each 64-byte line of records with one CPU thread.
pub fn stripes(slots: usize, threads: usize) -> Vec<Range<usize>> {
    let threads = threads.max(1);
    let (base, extra) = (slots / threads, slots % threads);
    let mut start = 0;
    (0..threads)
        .map(|t| {
            let len = base + usize::from(t < extra);
            let stripe = start..start + len;
            start += len;
            stripe
        })
        .collect()
}

/// The CPU producer: for each slot of `stripe`, the round's record with
/// `Relaxed` stores, then the flag set to `round` with `cpu`'s store.
///
/// # Panics
///
/// If `stripe` reaches past `records` or `flags`: a bug in the caller.
pub fn produce(records: &[AtomicRecord], flags: &[AtomicU32], stripe: Range<usize>, round: u32, cpu: CpuOrdering) {
    let order = store_order(cpu);
    for i in stripe {
        records[i].store(Record::expected(round, i as u32));
        flags[i].store(round, order);
    }
}

/// The CPU consumer: for each slot of `stripe`, spin with `cpu`'s load until
/// the flag reads `round`, then read the record and count it stale unless
/// it is the round's. A wait still spinning at `deadline` gives up and counts
/// a timeout; once the deadline has passed, each remaining slot gets one
/// look at its flag, so a consumer whose producer never comes ends at once.
///
/// # Panics
///
/// If `stripe` reaches past `records` or `flags`: a bug in the caller.
pub fn consume(
    records: &[AtomicRecord],
    flags: &[AtomicU32],
    stripe: Range<usize>,
    round: u32,
    cpu: CpuOrdering,
    deadline: Instant,
) -> HostCounts {
    let order = load_order(cpu);
    let mut counts = HostCounts::default();
    for i in stripe {
        let seen = loop {
            if flags[i].load(order) == round {
                break true;
            }
            if Instant::now() > deadline {
                break false;
            }
            std::hint::spin_loop();
        };
        if seen {
            counts.pairs += 1;
            counts.stale += u64::from(records[i].load() != Record::expected(round, i as u32));
        } else {
            counts.timeouts += 1;
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn memory(slots: usize) -> (Vec<AtomicRecord>, Vec<AtomicU32>) {
        ((0..slots).map(|_| AtomicRecord::default()).collect(), (0..slots).map(|_| AtomicU32::new(0)).collect())
    }

    #[test]
    fn stripes_cover_every_slot_once_in_order() {
        for (slots, threads) in [(0, 3), (1, 4), (10, 3), (1 << 20, 8), (7, 7), (5, 0)] {
            let s = stripes(slots, threads);
            assert_eq!(s.len(), threads.max(1));
            assert_eq!(s.first().map(|r| r.start), Some(0));
            assert_eq!(s.last().map(|r| r.end), Some(slots));
            assert!(s.windows(2).all(|w| w[0].end == w[1].start));
            let lens: Vec<usize> = s.iter().map(ExactSizeIterator::len).collect();
            assert!(lens.iter().max().unwrap() - lens.iter().min().unwrap() <= 1, "{lens:?}");
        }
    }

    /// A producer thread playing the GPU's part, with a `Release` flag, and
    /// consumer threads with `Acquire`, over several rounds on the same
    /// memory: Rust's model guarantees every record, and every slot is
    /// accounted for.
    #[test]
    fn release_acquire_between_cpu_threads_is_never_stale() {
        let slots = 1 << 14;
        let (records, flags) = memory(slots);
        for round in 1..=4 {
            let deadline = Instant::now() + Duration::from_secs(60);
            let counts = std::thread::scope(|s| {
                let consumers: Vec<_> = stripes(slots, 3)
                    .into_iter()
                    .map(|stripe| {
                        let (records, flags) = (&records, &flags);
                        s.spawn(move || consume(records, flags, stripe, round, CpuOrdering::ReleaseAcquire, deadline))
                    })
                    .collect();
                produce(&records, &flags, 0..slots, round, CpuOrdering::ReleaseAcquire);
                let mut total = HostCounts::default();
                for c in consumers {
                    total += c.join().unwrap();
                }
                total
            });
            assert_eq!(counts, HostCounts { pairs: slots as u64, stale: 0, timeouts: 0 }, "round {round}");
        }
    }

    /// A record left from an older round behind a flag of this one is
    /// counted stale, word by word: what a consumer sees when the flag
    /// overtakes the record.
    #[test]
    fn an_older_rounds_record_behind_a_new_flag_is_stale() {
        let slots = 100;
        let (records, flags) = memory(slots);
        produce(&records, &flags, 0..slots, 6, CpuOrdering::Relaxed);
        for flag in &flags {
            flag.store(7, Ordering::Relaxed);
        }
        // One record of round 7 in place: that slot alone is fresh.
        records[42].store(Record::expected(7, 42));
        let counts = consume(&records, &flags, 0..slots, 7, CpuOrdering::Relaxed, Instant::now());
        assert_eq!(counts, HostCounts { pairs: 100, stale: 99, timeouts: 0 });
        // One stale word makes the record stale.
        records[42].words[1].store(0, Ordering::Relaxed);
        let one = consume(&records, &flags, 42..43, 7, CpuOrdering::ReleaseAcquire, Instant::now());
        assert_eq!(one, HostCounts { pairs: 1, stale: 1, timeouts: 0 });
    }

    /// With no producer the consumer counts every slot a timeout and ends
    /// soon after its deadline, not one deadline per slot.
    #[test]
    fn a_consumer_without_a_producer_times_out_once_per_slot_and_ends() {
        let slots = 10_000;
        let (records, flags) = memory(slots);
        let start = Instant::now();
        let counts =
            consume(&records, &flags, 0..slots, 1, CpuOrdering::ReleaseAcquire, start + Duration::from_millis(20));
        assert_eq!(counts, HostCounts { pairs: 0, stale: 0, timeouts: slots as u64 });
        assert!(start.elapsed() < Duration::from_secs(10), "{:?}", start.elapsed());
    }

    #[test]
    fn the_orderings_are_rusts_release_acquire_or_relaxed() {
        assert_eq!(load_order(CpuOrdering::ReleaseAcquire), Ordering::Acquire);
        assert_eq!(store_order(CpuOrdering::ReleaseAcquire), Ordering::Release);
        assert_eq!(load_order(CpuOrdering::Relaxed), Ordering::Relaxed);
        assert_eq!(store_order(CpuOrdering::Relaxed), Ordering::Relaxed);
    }
}
