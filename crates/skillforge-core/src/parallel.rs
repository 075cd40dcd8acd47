//! Independent work spread over the available cores, results kept in order.

/// `items.iter().map(work).collect()`, spread over the available cores in contiguous parts so the results
/// keep their order. Small inputs stay on this thread: spawning costs more than they do.
pub fn map<T: Sync, R: Send>(items: &[T], work: impl Fn(&T) -> R + Sync) -> Vec<R> {
    map_from(64, items, work)
}

/// [`map`] over items the work changes (it may take what an item holds).
pub fn map_mut<T: Send, R: Send>(items: &mut [T], work: impl Fn(&mut T) -> R + Sync) -> Vec<R> {
    let workers = std::thread::available_parallelism().map_or(1, usize::from);
    if workers <= 1 || items.len() < 64 {
        return items.iter_mut().map(&work).collect();
    }
    let chunk = items.len().div_ceil(workers);
    let work = &work;
    std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks_mut(chunk)
            .map(|part| scope.spawn(move || part.iter_mut().map(work).collect::<Vec<_>>()))
            .collect();
        let mut results = Vec::new();
        for handle in handles {
            match handle.join() {
                Ok(mut done) => results.append(&mut done),
                // The part's items may be half taken: a panic here is a bug, surfaced to the caller.
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        results
    })
}

/// [`map`] for work whose items are few but large: spread from `minimum` items on.
pub fn map_from<T: Sync, R: Send>(
    minimum: usize,
    items: &[T],
    work: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let workers = std::thread::available_parallelism().map_or(1, usize::from);
    if workers <= 1 || items.len() < minimum.max(2) {
        return items.iter().map(&work).collect();
    }
    let chunk = items.len().div_ceil(workers);
    let work = &work;
    std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .map(|part| scope.spawn(move || part.iter().map(work).collect::<Vec<_>>()))
            .collect();
        let mut results = Vec::with_capacity(items.len());
        for (handle, part) in handles.into_iter().zip(items.chunks(chunk)) {
            match handle.join() {
                Ok(mut done) => results.append(&mut done),
                // A panic in a worker is a bug; redo that part on this thread so the result stays complete
                // (or the panic surfaces here, where the caller sees it).
                Err(_) => results.extend(part.iter().map(work)),
            }
        }
        results
    })
}

/// The results of `work` on each part of `items` (`part` items at a time), handed to `consume` part by
/// part in the items' order, on this thread, while the parts after it are worked on by the other cores:
/// what is done with the results (writing a report) overlaps the work, and only a few parts' results
/// are held at once. The first error of `consume` ends the run and is returned.
pub fn each_part<T: Sync, R: Send, E>(
    items: &[T],
    part: usize,
    work: impl Fn(&T) -> R + Sync,
    mut consume: impl FnMut(&[T], Vec<R>) -> Result<(), E>,
) -> Result<(), E> {
    let workers = std::thread::available_parallelism().map_or(1, usize::from);
    let parts: Vec<&[T]> = items.chunks(part.max(1)).collect();
    if workers <= 1 || parts.len() < 2 {
        for part in parts {
            consume(part, part.iter().map(&work).collect())?;
        }
        return Ok(());
    }
    // How far the workers may run ahead of `consume`, in parts.
    let ahead = workers * 2;
    struct State<R> {
        /// Each part's results once worked out; `Err` when its work panicked (redone by `consume`'s
        /// thread, where a panic surfaces to the caller).
        done: Vec<Option<Result<Vec<R>, ()>>>,
        consumed: usize,
        stop: bool,
    }
    let state = std::sync::Mutex::new(State {
        done: (0..parts.len()).map(|_| None).collect(),
        consumed: 0,
        stop: false,
    });
    let lock = || {
        state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    };
    let finished = std::sync::Condvar::new();
    let room = std::sync::Condvar::new();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let (parts, work) = (&parts, &work);
    /// Lets the workers go when this thread stops consuming, by an error or a panic.
    struct Release<'a, R> {
        state: &'a std::sync::Mutex<State<R>>,
        room: &'a std::sync::Condvar,
    }
    impl<R> Drop for Release<'_, R> {
        fn drop(&mut self) {
            self.state
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .stop = true;
            self.room.notify_all();
        }
    }
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(items) = parts.get(index) else {
                    break;
                };
                {
                    let mut state = lock();
                    while !state.stop && index >= state.consumed + ahead {
                        state = room
                            .wait(state)
                            .unwrap_or_else(std::sync::PoisonError::into_inner);
                    }
                    if state.stop {
                        break;
                    }
                }
                let results = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    items.iter().map(work).collect::<Vec<R>>()
                }))
                .map_err(|_| ());
                lock().done[index] = Some(results);
                finished.notify_all();
            });
        }
        let _release = Release {
            state: &state,
            room: &room,
        };
        let mut outcome = Ok(());
        for (index, items) in parts.iter().enumerate() {
            let results = {
                let mut state = lock();
                loop {
                    if let Some(results) = state.done[index].take() {
                        break results;
                    }
                    state = finished
                        .wait(state)
                        .unwrap_or_else(std::sync::PoisonError::into_inner);
                }
            };
            let results = results.unwrap_or_else(|()| items.iter().map(work).collect());
            outcome = consume(items, results);
            if outcome.is_err() {
                break;
            }
            lock().consumed = index + 1;
            room.notify_all();
        }
        outcome
    })
}

/// For a short run over a whole tree (the command line): this process's fresh memory comes in small
/// pages instead of transparent huge pages. The allocator asks for huge pages where the system allows
/// them; each first touch of one then clears 2 MB, most of which a run that keeps many small parses on
/// several threads never uses, and the run holds more memory than it uses. Only a hint: where it cannot be
/// given (another system, an old kernel), nothing changes.
pub fn prefer_small_pages() {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    // SAFETY: PR_SET_THP_DISABLE takes integers only and changes no memory of this process.
    unsafe {
        libc::prctl(
            libc::PR_SET_THP_DISABLE,
            1 as libc::c_ulong,
            0 as libc::c_ulong,
            0 as libc::c_ulong,
            0 as libc::c_ulong,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::each_part;

    #[test]
    fn each_part_hands_out_every_result_in_order() {
        let items: Vec<usize> = (0..1000).collect();
        let mut seen = Vec::new();
        let mut parts = Vec::new();
        let done: Result<(), ()> = each_part(
            &items,
            7,
            |item| item * 2,
            |part, results| {
                assert_eq!(part.len(), results.len());
                parts.push(part.len());
                seen.extend(results);
                Ok(())
            },
        );
        assert_eq!(done, Ok(()));
        assert_eq!(seen, items.iter().map(|item| item * 2).collect::<Vec<_>>());
        assert_eq!(parts.len(), 1000usize.div_ceil(7));
    }

    #[test]
    fn each_part_stops_at_the_first_error() {
        let items: Vec<usize> = (0..1000).collect();
        let mut consumed = 0;
        let done = each_part(
            &items,
            10,
            |item| *item,
            |part, _| {
                consumed += 1;
                if part[0] == 30 {
                    Err(part[0])
                } else {
                    Ok(())
                }
            },
        );
        assert_eq!(done, Err(30));
        assert_eq!(consumed, 4);
    }
}
