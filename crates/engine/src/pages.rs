//! Memory hints for the search's largest table. The transposition table is read at places no
//! cache predicts; with the ordinary 4 KiB pages nearly every probe also missed the
//! processor's address cache (TLB) and waited for a walk of the page tables as well as for the
//! data. A [`HugeSlice`] is aligned to 2 MiB and, on Linux, marked for the kernel's
//! transparent huge pages, so that a few TLB entries cover it. Where the kernel declines (huge
//! pages switched off, other systems), it is an ordinary allocation and works the same.
//! [`prefetch`] asks for a line ahead of its use. (The continuation history, 1.2 MB, in huge
//! pages and prefetched at the start of a node gained nothing measurable, so it stays boxed.)

use std::alloc::{self, Layout};
use std::ops::Deref;
use std::ptr::NonNull;

/// Types for which all-zero bytes are a valid value.
///
/// # Safety
/// Only for types whose every field is an integer, an atomic integer, or such a type.
pub unsafe trait Zeroable {}

/// The size and alignment of a huge page on x86-64 (and most aarch64 kernels).
const HUGE_PAGE: usize = 2 << 20;

/// A fixed-length slice of zero-initialised `T`s in huge pages.
pub struct HugeSlice<T: Zeroable> {
    ptr: NonNull<T>,
    len: usize,
}

// SAFETY: the slice owns its elements, as a `Box<[T]>` does.
unsafe impl<T: Zeroable + Send> Send for HugeSlice<T> {}
// SAFETY: as above.
unsafe impl<T: Zeroable + Sync> Sync for HugeSlice<T> {}

impl<T: Zeroable> HugeSlice<T> {
    /// The allocation for `len` elements; `None` if its size overflows `isize`.
    fn layout(len: usize) -> Option<Layout> {
        Layout::array::<T>(len.max(1))
            .and_then(|l| l.align_to(HUGE_PAGE))
            .ok()
            // Whole huge pages: the kernel backs no partial one with a huge page.
            .map(|l| l.pad_to_align())
    }

    /// `len` zeroed elements; aborts the process if the memory cannot be had, as a `Vec`
    /// does. [`HugeSlice::try_zeroed`] is for sizes that come from outside.
    pub fn zeroed(len: usize) -> HugeSlice<T> {
        Self::try_zeroed(len).unwrap_or_else(|| match Self::layout(len) {
            Some(layout) => alloc::handle_alloc_error(layout),
            None => panic!("a slice of {len} elements does not fit in the address space"),
        })
    }

    /// `len` zeroed elements, or `None` if the memory cannot be had: the allocator (here the
    /// kernel, for a request this large) refused it, or its size overflows. A UCI `Hash` as
    /// large as the option allows is more than many machines hold, and the engine must live
    /// on with its old table rather than abort.
    ///
    /// Memory the kernel promised but cannot deliver (overcommit) is not caught: the pages
    /// are touched here, and the kernel may end the process then. Linux's default heuristic
    /// refuses a single request larger than memory and swap together, which is the case that
    /// matters.
    pub fn try_zeroed(len: usize) -> Option<HugeSlice<T>> {
        let layout = Self::layout(len)?;
        // SAFETY: the layout's size is not zero (at least one element of a sized type, and
        // the alignment makes it at least 2 MiB).
        let ptr = NonNull::new(unsafe { alloc::alloc(layout) }.cast::<T>())?;
        #[cfg(target_os = "linux")]
        // SAFETY: the range is this allocation; the advice is only a hint.
        unsafe {
            libc::madvise(ptr.as_ptr().cast(), layout.size(), libc::MADV_HUGEPAGE);
        }
        // Zeroed after the advice, so that these first touches already get huge pages.
        // SAFETY: the allocation holds `len` elements, and zero bytes are a valid `T`.
        unsafe { ptr.as_ptr().write_bytes(0, len) };
        Some(HugeSlice { ptr, len })
    }
}

impl<T: Zeroable> Deref for HugeSlice<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        // SAFETY: `len` initialised elements live at `ptr` until drop.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> Drop for HugeSlice<T> {
    fn drop(&mut self) {
        // The elements are plain integers or atomics: nothing to drop in them.
        // `try_zeroed` made this layout, so it exists.
        let layout = Self::layout(self.len).expect("the layout it was allocated with");
        // SAFETY: allocated in `try_zeroed` with this layout.
        unsafe { alloc::dealloc(self.ptr.as_ptr().cast(), layout) };
    }
}

/// Asks the processor to fetch the cache line holding `p`, for a read a little later: a hint
/// that cannot fault, whatever the address.
#[inline(always)]
pub fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults and reads nothing the program sees.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(p.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicI16, Ordering::Relaxed};

    /// Written through shared references, as the table's buckets are.
    struct Cell(AtomicI16);

    // SAFETY: an atomic integer.
    unsafe impl Zeroable for Cell {}

    #[test]
    fn a_huge_slice_is_zeroed_aligned_and_writable() {
        for len in [1usize, 1000, 3 << 20] {
            let s = HugeSlice::<Cell>::zeroed(len);
            assert_eq!(s.len(), len);
            assert_eq!(s.as_ptr() as usize % HUGE_PAGE, 0);
            assert!(s.iter().all(|x| x.0.load(Relaxed) == 0));
            s[len - 1].0.store(-7, Relaxed);
            s[len / 2].0.fetch_add(3, Relaxed);
            assert_eq!(s[len - 1].0.load(Relaxed), if len == 1 { -4 } else { -7 });
            let sum: i32 = s.iter().map(|x| i32::from(x.0.load(Relaxed))).sum();
            assert_eq!(sum, -4);
        }
    }

    #[test]
    fn a_huge_slice_that_cannot_be_had_is_none() {
        // 2 PiB: more than the address space of any x86-64 or aarch64 process, so refused
        // whatever the machine and its overcommit policy.
        assert!(HugeSlice::<Cell>::try_zeroed(1 << 50).is_none());
        // A size that overflows.
        assert!(HugeSlice::<Cell>::try_zeroed(usize::MAX / 2).is_none());
        // The memory is there again for what fits.
        assert_eq!(
            HugeSlice::<Cell>::try_zeroed(1000).map(|s| s.len()),
            Some(1000)
        );
    }
}
