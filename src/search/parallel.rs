//! Work spread over every core with the `parallel` feature (rayon), in
//! order: each helper returns exactly what its sequential loop would, so a
//! search gives the same report with or without the feature.

use alloc::vec::Vec;

/// `f(scratch, item)` of every item, in the items' order, each worker
/// making its own scratch space with `init` (once per piece of work it
/// takes, not once per item).
pub(crate) fn map_init<T, S, R, I, F>(items: &[T], init: I, f: F) -> Vec<R>
where
    T: Sync,
    R: Send,
    I: Fn() -> S + Sync + Send,
    F: Fn(&mut S, &T) -> R + Sync + Send,
{
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        items.par_iter().map_init(init, f).collect()
    }
    #[cfg(not(feature = "parallel"))]
    {
        let mut scratch = init();
        items.iter().map(|item| f(&mut scratch, item)).collect()
    }
}

/// `f(i)` for every `i` in `0..n`, in order.
pub(crate) fn map_range<R, F>(n: u64, f: F) -> Vec<R>
where
    R: Send,
    F: Fn(u64) -> R + Sync + Send,
{
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        (0..n).into_par_iter().map(f).collect()
    }
    #[cfg(not(feature = "parallel"))]
    {
        (0..n).map(f).collect()
    }
}
