//! What the kernel tests share: the wgpu client (Mesa's lavapipe where
//! there is no GPU), buffers, and the descriptors the chapter names.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

use cktile_core::{Descriptor, StaticDescriptor};
use cubecl::client::Client;
use cubecl::prelude::*;

/// The wgpu client every test launches on.
pub fn client() -> Client {
    cubecl::Device::default().client()
}

/// A buffer argument over a whole handle of `len` elements.
pub fn buffer(handle: &cubecl::server::Handle, len: usize) -> BufferArg {
    // SAFETY: `len` is the number of elements the handle was allocated
    // with (every caller passes the length it created the handle from), so
    // the kernel's bounds are the buffer's.
    #[allow(unsafe_code)]
    unsafe {
        BufferArg::from_raw_parts(handle.clone(), len)
    }
}

/// A handle of `len` zeroed `u32`s.
pub fn zeros(client: &Client, len: usize) -> cubecl::server::Handle {
    client.create_from_slice(u32::as_bytes(&vec![0u32; len]))
}

/// A handle's `u32`s.
pub fn read_u32(client: &Client, h: cubecl::server::Handle) -> Vec<u32> {
    u32::from_bytes(&client.read_one(h).unwrap()).to_vec()
}

/// A handle's `f32`s.
pub fn read_f32(client: &Client, h: cubecl::server::Handle) -> Vec<f32> {
    f32::from_bytes(&client.read_one(h).unwrap()).to_vec()
}

/// Declares a unit type whose `StaticDescriptor` is a `const` expression
/// returning `Result<Descriptor, cktile_core::Error>`.
#[macro_export]
macro_rules! static_descriptor {
    ($(#[$m:meta])* $name:ident = $e:expr) => {
        $(#[$m])*
        pub struct $name;
        impl cktile_core::StaticDescriptor for $name {
            const DESCRIPTOR: cktile_core::Descriptor = match $e {
                Ok(d) => d,
                Err(e) => panic!("{}", e.summary()),
            };
        }
    };
}

static_descriptor!(
    /// CK's XOR-preshuffled A block: 32 x 64 fp16, 8-element vectors.
    XorBlock = cktile_analysis::layouts::ck::xor_preshuffle(32, 64, 8)
);

/// The XOR block as a hand-written cubecl layout would compute it.
pub fn xor_block_offset(m: i64, k: i64) -> i64 {
    64 * m + 8 * ((k / 8) ^ (m % 8)) + k % 8
}

/// The descriptor of a `StaticDescriptor` type.
pub fn descriptor<D: StaticDescriptor>() -> Descriptor {
    D::DESCRIPTOR
}
