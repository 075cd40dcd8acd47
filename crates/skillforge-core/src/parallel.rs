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
