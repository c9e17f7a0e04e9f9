//! Memory: the address map of the state spaces and the global heap.
//!
//! Every state space has its own addresses, as on the hardware:
//!
//! - **global**: allocations (module `.global` variables, launch buffers) on a
//!   heap that starts at 4 GiB for 64-bit modules (so that a pointer truncated
//!   to 32 bits faults), 256 MiB for 32-bit ones; each allocation is aligned to
//!   256 bytes and followed by a gap of at least 256 bytes, so small overruns
//!   fault instead of landing in a neighbour. Global addresses are generic
//!   addresses.
//! - **shared**: per CTA, offsets from 0: static variables (module- and
//!   function-level) first, then the dynamic (`.extern .shared ... []`) region,
//!   aligned to 16 bytes.
//! - **local**: per thread, offsets from 0: module-level `.local` variables,
//!   then one frame per active call (the function's `.local` variables).
//! - **param**: kernel parameters at offsets from 0 (read-only, shared by the
//!   grid); from [`PARAM_STACK_BASE`] on, the thread's parameter stack: one frame
//!   per active call holding the function's return and formal `.param`s and the
//!   `.param` variables it declares for its own calls.
//! - **const**: module `.const` variables, offsets from 0.
//!
//! Generic addresses of shared, local, param and const memory lie in windows
//! far from the heap (see [`AddrMap`]); `cvta` adds or subtracts the window
//! base, and a generic access picks the space by window. Functions have
//! addresses too (for `mov.u64 %rd, func` and indirect calls), in their own
//! window. Every access is checked: in bounds of one allocation or segment,
//! aligned to its size.

use crate::error::ErrorKind;
use crate::types::Space;

/// Where the thread parameter stack starts in the param space.
pub const PARAM_STACK_BASE: u64 = 0x0100_0000;

/// Alignment and gap of global allocations.
const GLOBAL_ALIGN: u64 = 256;

/// The windows of the generic address space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AddrMap {
    pub global_base: u64,
    pub func_win: u64,
    pub param_win: u64,
    pub const_win: u64,
    pub shared_win: u64,
    pub local_win: u64,
    pub win_size: u64,
    /// 32 or 64.
    pub addr_bits: u32,
}

impl AddrMap {
    pub fn new(addr_bits: u32) -> AddrMap {
        if addr_bits == 32 {
            AddrMap {
                global_base: 0x1000_0000,
                func_win: 0x9000_0000,
                param_win: 0xa000_0000,
                const_win: 0xb000_0000,
                shared_win: 0xc000_0000,
                local_win: 0xd000_0000,
                win_size: 0x1000_0000,
                addr_bits,
            }
        } else {
            AddrMap {
                global_base: 0x1_0000_0000,
                func_win: 0x7a00_0000_0000,
                param_win: 0x7b00_0000_0000,
                const_win: 0x7c00_0000_0000,
                shared_win: 0x7d00_0000_0000,
                local_win: 0x7e00_0000_0000,
                win_size: 0x1_0000_0000,
                addr_bits,
            }
        }
    }

    /// The window base of a space (global: 0, the identity).
    pub fn window(&self, space: Space) -> u64 {
        match space {
            Space::Shared => self.shared_win,
            Space::Local => self.local_win,
            Space::Const => self.const_win,
            Space::Param => self.param_win,
            Space::Global | Space::Generic => 0,
        }
    }

    /// The space a generic address falls in, and the address within it.
    pub fn split_generic(&self, addr: u64) -> (Space, u64) {
        for (space, base) in [
            (Space::Shared, self.shared_win),
            (Space::Local, self.local_win),
            (Space::Const, self.const_win),
            (Space::Param, self.param_win),
        ] {
            if addr >= base && addr - base < self.win_size {
                return (space, addr - base);
            }
        }
        (Space::Global, addr)
    }

    /// The address of function `index`.
    pub fn func_addr(&self, index: u32) -> u64 {
        self.func_win + 16 * index as u64
    }

    /// The function at a function address.
    pub fn func_at(&self, addr: u64) -> Option<u32> {
        let off = addr.checked_sub(self.func_win)?;
        (off < self.win_size && off % 16 == 0).then_some((off / 16) as u32)
    }
}

/// One global allocation.
#[derive(Clone, Debug)]
pub struct Alloc {
    pub base: u64,
    pub data: Vec<u8>,
    /// The variable or buffer it holds (for messages).
    pub name: String,
}

/// The global heap.
#[derive(Clone, Debug)]
pub struct GlobalMem {
    /// Sorted by base.
    pub allocs: Vec<Alloc>,
    next: u64,
    /// Index of the allocation of the last hit.
    last: usize,
}

impl GlobalMem {
    pub fn new(base: u64) -> GlobalMem {
        GlobalMem {
            allocs: Default::default(),
            next: base,
            last: 0,
        }
    }

    /// Allocates `data` with at least `align` alignment; returns its address.
    pub fn alloc(&mut self, data: Vec<u8>, align: u64, name: &str) -> u64 {
        let align = align.max(GLOBAL_ALIGN);
        let base = self.next.div_ceil(align) * align;
        let size = data.len() as u64;
        self.next = base + size.div_ceil(GLOBAL_ALIGN) * GLOBAL_ALIGN + GLOBAL_ALIGN;
        self.allocs.push(Alloc {
            base,
            data,
            name: name.to_string(),
        });
        base
    }

    /// Frees every allocation from index `keep` on (the launch's buffers).
    pub fn truncate(&mut self, keep: usize) {
        if let Some(a) = self.allocs.get(keep) {
            self.next = a.base;
        }
        self.allocs.truncate(keep);
        self.last = 0;
    }

    /// The allocation holding `[addr, addr+size)`.
    #[inline]
    pub fn find(&mut self, addr: u64, size: u64) -> Option<(usize, usize)> {
        let end = addr.checked_add(size)?;
        let hit = |a: &Alloc| addr >= a.base && end <= a.base + a.data.len() as u64;
        if let Some(a) = self.allocs.get(self.last) {
            if hit(a) {
                return Some((self.last, (addr - a.base) as usize));
            }
        }
        let i = self.allocs.partition_point(|a| a.base <= addr);
        let i = i.checked_sub(1)?;
        let a = &self.allocs[i];
        if hit(a) {
            self.last = i;
            Some((i, (addr - a.base) as usize))
        } else {
            None
        }
    }

    pub fn slice_mut(&mut self, addr: u64, size: u64) -> Option<&mut [u8]> {
        let (i, off) = self.find(addr, size)?;
        Some(&mut self.allocs[i].data[off..off + size as usize])
    }
}

/// Reads a little-endian value of up to 8 bytes.
#[inline]
pub fn read_le(bytes: &[u8]) -> u64 {
    let mut buf = [0u8; 8];
    buf[..bytes.len()].copy_from_slice(bytes);
    u64::from_le_bytes(buf)
}

/// Writes the low `out.len()` bytes of `v`, little-endian.
#[inline]
pub fn write_le(out: &mut [u8], v: u64) {
    let n = out.len();
    out.copy_from_slice(&v.to_le_bytes()[..n]);
}

/// A bounds error for an access.
pub fn oob(space: Space, addr: u64, size: u64) -> ErrorKind {
    ErrorKind::OutOfBounds {
        space: space.name().to_string(),
        addr,
        size: size as u32,
    }
}

/// Checks that `addr` is aligned to `size` (a power of two).
#[inline]
pub fn check_align(space: Space, addr: u64, size: u64) -> Result<(), ErrorKind> {
    if size > 1 && addr & (size - 1) != 0 {
        return Err(ErrorKind::Misaligned {
            space: space.name().to_string(),
            addr,
            size: size as u32,
        });
    }
    Ok(())
}

/// Bounds-checked slice of a segment.
#[inline]
pub fn seg_slice(
    seg: &mut [u8],
    space: Space,
    addr: u64,
    size: u64,
) -> Result<&mut [u8], ErrorKind> {
    let end = addr
        .checked_add(size)
        .ok_or_else(|| oob(space, addr, size))?;
    if end > seg.len() as u64 {
        return Err(oob(space, addr, size));
    }
    Ok(&mut seg[addr as usize..end as usize])
}

/// `n` zeroed bytes for `what`, or an error naming the size when the memory
/// cannot be had: sizes come from the user (buffers, variables, shared
/// memory), and an allocation failure must not abort the process. Like
/// `vec![0; n]` the memory comes zeroed from the allocator (pages the program
/// never touches are never written), but a refusal is an error.
pub(crate) fn try_zeroed(n: u64, what: &str) -> Result<Vec<u8>, crate::EmuError> {
    let refused = || {
        crate::EmuError::new(crate::ErrorKind::Unsupported(format!(
            "cannot allocate {n} bytes for {what}"
        )))
    };
    let len = usize::try_from(n).map_err(|_| refused())?;
    if len == 0 {
        return Ok(Vec::new());
    }
    let layout = std::alloc::Layout::array::<u8>(len).map_err(|_| refused())?;
    // SAFETY: `layout` has a non-zero size. The pointer, when not null, is
    // from the global allocator with `u8`'s alignment and `len` bytes, all
    // initialized (zeroed): what `Vec::from_raw_parts` requires with length
    // and capacity `len`.
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) };
    if ptr.is_null() {
        return Err(refused());
    }
    Ok(unsafe { Vec::from_raw_parts(ptr, len, len) })
}

/// A copy of `bytes` for `what`, or an error when the memory cannot be had.
pub(crate) fn try_copy(bytes: &[u8], what: &str) -> Result<Vec<u8>, crate::EmuError> {
    let mut v = Vec::new();
    v.try_reserve_exact(bytes.len()).map_err(|_| {
        crate::EmuError::new(crate::ErrorKind::Unsupported(format!(
            "cannot allocate {} bytes for {what}",
            bytes.len()
        )))
    })?;
    v.extend_from_slice(bytes);
    Ok(v)
}

#[cfg(test)]
mod alloc_tests {
    use super::{try_copy, try_zeroed};

    #[test]
    fn refused_allocations_are_errors() {
        let v = try_zeroed(4096, "a test").unwrap();
        assert_eq!(v.len(), 4096);
        assert!(v.iter().all(|&b| b == 0));
        assert!(try_zeroed(0, "a test").unwrap().is_empty());
        for n in [u64::MAX, 1 << 62, (isize::MAX as u64) + 1] {
            let e = try_zeroed(n, "a test").unwrap_err().to_string();
            assert!(
                e.contains(&format!("cannot allocate {n} bytes for a test")),
                "{e}"
            );
        }
        assert_eq!(try_copy(&[1, 2, 3], "a test").unwrap(), [1, 2, 3]);
    }
}
