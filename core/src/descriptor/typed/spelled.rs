//! [`descriptor_chain!`](crate::descriptor_chain): a chain of CK Tile's
//! calls written once, as three items: the chain's type (what a struct
//! field or a policy's associated type names), its typed builder (what a
//! kernel calls, with each parameter a compile-time
//! [`Number`](crate::Number) or a runtime `usize`) and a `const fn`
//! building its runtime [`Descriptor`](crate::Descriptor) (what a
//! compile-time check or a catalogue entry evaluates).
//!
//! The typed builder is CK's own calls
//! ([`make_naive_tensor_descriptor`](super::make_naive_tensor_descriptor),
//! [`transform_tensor_descriptor`](super::transform_tensor_descriptor)
//! with the `make_*_transform` functions), and the runtime builder is the
//! same calls on the runtime types ([`Descriptor::naive`](crate::Descriptor::naive),
//! [`Descriptor::transform_lists`](crate::Descriptor::transform_lists)
//! with [`Transform`](cktile_transforms::Transform)'s constructors): for
//! the same values they give the same descriptor, or the same error.
//! Only the spelling is shared: every meaning stays with the transforms'
//! and the descriptors' own functions.

/// A chain of CK Tile's descriptor calls spelled once, giving its type, its
/// typed builder and its runtime `const` builder.
///
/// The first three lines name the three items (each with its own
/// attributes and visibility); the chain follows in spec form, its lengths
/// the type's parameters or integer literals:
///
/// - a base: `naive((lengths), (strides))`, `naive((lengths), (strides),
///   vector_length, vector_stride)` or `packed((lengths))`;
/// - then `| transform(kind(args) on [lower ids] -> [upper ids], ...)` per
///   stage, with the kinds `pass_through(len)`, `pad(len, left, right)`,
///   `left_pad(len, left)`, `right_pad(len, right)`, `merge((lengths))`,
///   `unmerge((lengths))`, `xor((l0, l1))` and `embed((lengths),
///   (coefficients))`.
///
/// The type takes one parameter per name (each a
/// [`Value`](crate::transforms::Value)); the typed builder takes each as a
/// value of that type, and the runtime builder as a `usize`. A length
/// computed from others (CK's `KPerBlock / KPack`) is a parameter of its
/// own: the caller derives it, as the GEMM policy's
/// [`make_lds_block`](crate::ops::gemm::make_lds_block) does with the
/// policy's derived numbers.
///
/// ```
/// use cktile_core::prelude::*;
///
/// cktile_core::descriptor_chain! {
///     /// A row-major M x K tile whose rows are padded, K split into (K0, KPack).
///     pub type Padded<M, K, S, K0, P>;
///     /// Builds a [`Padded`].
///     pub fn make_padded;
///     /// [`make_padded`]'s descriptor, at compile time.
///     pub const fn padded;
///     naive((M, K), (S, 1))
///     | transform(pass_through(M) on [0] -> [0], unmerge((K0, P)) on [1] -> [1, 2])
/// }
///
/// // Compile-time lengths: a zero-sized descriptor whose type is the chain's.
/// let d: TensorDescriptor<Padded<Number<4>, Number<32>, Number<40>, Number<4>, Number<8>>> =
///     make_padded(Number::<4>, Number::<32>, Number::<40>, Number::<4>, Number::<8>)?;
/// assert_eq!(d.calculate_offset([1, 2, 3]), 40 + 19);
/// // The same chain with a runtime row stride, and at compile time.
/// let r = make_padded(Number::<4>, Number::<32>, 48usize, Number::<4>, Number::<8>)?;
/// const D: Descriptor = match padded(4, 32, 40, 4, 8) { Ok(d) => d, Err(_) => panic!() };
/// assert_eq!(d.descriptor(), D);
/// assert_eq!(r.descriptor(), padded(4, 32, 48, 4, 8)?);
/// // The same refusal from both builders: 4 * 8 is not K = 30.
/// let typed = make_padded(4usize, 30usize, 40usize, 4usize, 8usize).unwrap_err();
/// assert_eq!(typed, padded(4, 30, 40, 4, 8).unwrap_err());
/// # Ok::<(), cktile_core::Error>(())
/// ```
///
/// ```compile_fail
/// cktile_core::descriptor_chain! {
///     // `swizzle` is no kind this macro spells.
///     pub type Bad<L>;
///     pub fn make_bad;
///     pub const fn bad;
///     packed((L)) | transform(swizzle(L) on [0] -> [0])
/// }
/// ```
///
/// ```compile_fail
/// cktile_core::descriptor_chain! {
///     // `aligned` is no base this macro spells.
///     pub type Bad<L>;
///     pub fn make_bad;
///     pub const fn bad;
///     aligned((L), 4) | transform(pass_through(L) on [0] -> [0])
/// }
/// ```
#[macro_export]
macro_rules! descriptor_chain {
    // The three items, once every base and kind is known (`@known`).
    (
        @emit
        $(#[$tm:meta])* $tv:vis type $name:ident<$($p:ident),+ $(,)?>;
        $(#[$fm:meta])* $fv:vis fn $make:ident;
        $(#[$cm:meta])* $cv:vis const fn $runtime:ident;
        $base:ident $bargs:tt
        $(| transform($($kind:ident $kargs:tt on [$($lo:literal),* $(,)?] -> [$($up:literal),* $(,)?]),+ $(,)?))*
    ) => {
        $(#[$tm])*
        $tv type $name<$($p),+> = $crate::descriptor_chain!(@nest
            [$crate::descriptor_chain!(@base_type $base $bargs)]
            $([$($kind $kargs [$($lo)*] [$($up)*])+])*
        );

        $(#[$fm])*
        #[allow(non_snake_case, clippy::too_many_arguments)]
        #[inline(always)]
        $fv fn $make<$($p: $crate::transforms::Value),+>(
            $($p: $p),+
        ) -> ::core::result::Result<$crate::descriptor::typed::TensorDescriptor<$name<$($p),+>>, $crate::Error> {
            let d = $crate::descriptor_chain!(@base_typed $base $bargs)?;
            $(
                let d = $crate::descriptor::typed::transform_tensor_descriptor(
                    d,
                    ($($crate::descriptor_chain!(@typed $kind $kargs),)+),
                    ($(($($crate::Number::<$lo>,)*),)+),
                    ($(($($crate::Number::<$up>,)*),)+),
                )?;
            )*
            ::core::result::Result::Ok(d)
        }

        $(#[$cm])*
        #[allow(non_snake_case, clippy::too_many_arguments)]
        $cv const fn $runtime($($p: usize),+) -> ::core::result::Result<$crate::Descriptor, $crate::Error> {
            let d = match $crate::descriptor_chain!(@base_runtime $base $bargs) {
                ::core::result::Result::Ok(d) => d,
                ::core::result::Result::Err(e) => return ::core::result::Result::Err(e),
            };
            $(
                let d = match d.transform_lists(
                    &[$($crate::descriptor_chain!(@runtime $kind $kargs)),+],
                    &[$(&[$($lo),*]),+],
                    &[$(&[$($up),*]),+],
                ) {
                    ::core::result::Result::Ok(d) => d,
                    ::core::result::Result::Err(e) => return ::core::result::Result::Err(e),
                };
            )*
            ::core::result::Result::Ok(d)
        }
    };

    // The chain's type, one `Transformed` a stage around the base's.
    (@nest [$acc:ty]) => { $acc };
    (@nest [$acc:ty] [$($kind:ident $kargs:tt [$($lo:literal)*] [$($up:literal)*])+] $($rest:tt)*) => {
        $crate::descriptor_chain!(@nest
            [$crate::descriptor::typed::Transformed<
                $acc,
                ($($crate::descriptor_chain!(@type $kind $kargs),)+),
                ($(($($crate::Number<$lo>,)*),)+),
                ($(($($crate::Number<$up>,)*),)+),
            >]
            $($rest)*
        )
    };

    // A length: a parameter, or a literal (a `Number` in the typed forms).
    (@t $n:literal) => { $crate::Number<$n> };
    (@t $p:ident) => { $p };
    (@v $n:literal) => { $crate::Number::<$n> };
    (@v $p:ident) => { $p };

    // The bases: type, typed call, runtime call.
    (@base_type naive (($($l:tt),+ $(,)?), ($($s:tt),+ $(,)?))) => {
        $crate::descriptor::typed::Naive<($($crate::descriptor_chain!(@t $l),)+), ($($crate::descriptor_chain!(@t $s),)+)>
    };
    (@base_typed naive (($($l:tt),+ $(,)?), ($($s:tt),+ $(,)?))) => {
        $crate::descriptor::typed::make_naive_tensor_descriptor(
            ($($crate::descriptor_chain!(@v $l),)+),
            ($($crate::descriptor_chain!(@v $s),)+),
        )
    };
    (@base_runtime naive (($($l:tt),+ $(,)?), ($($s:tt),+ $(,)?))) => {
        $crate::Descriptor::naive(&[$($l),+], &[$($s),+])
    };
    (@base_type naive (($($l:tt),+ $(,)?), ($($s:tt),+ $(,)?), $vl:tt, $vs:tt)) => {
        $crate::descriptor::typed::NaiveVector<
            ($($crate::descriptor_chain!(@t $l),)+),
            ($($crate::descriptor_chain!(@t $s),)+),
            $crate::descriptor_chain!(@t $vl),
            $crate::descriptor_chain!(@t $vs),
        >
    };
    (@base_typed naive (($($l:tt),+ $(,)?), ($($s:tt),+ $(,)?), $vl:tt, $vs:tt)) => {
        $crate::descriptor::typed::make_naive_tensor_descriptor_with_vector(
            ($($crate::descriptor_chain!(@v $l),)+),
            ($($crate::descriptor_chain!(@v $s),)+),
            $crate::descriptor_chain!(@v $vl),
            $crate::descriptor_chain!(@v $vs),
        )
    };
    (@base_runtime naive (($($l:tt),+ $(,)?), ($($s:tt),+ $(,)?), $vl:tt, $vs:tt)) => {
        $crate::Descriptor::naive_with_guaranteed(&[$($l),+], &[$($s),+], $vl, $vs)
    };
    (@base_type packed (($($l:tt),+ $(,)?))) => {
        $crate::descriptor::typed::Packed<($($crate::descriptor_chain!(@t $l),)+)>
    };
    (@base_typed packed (($($l:tt),+ $(,)?))) => {
        $crate::descriptor::typed::make_naive_tensor_descriptor_packed(($($crate::descriptor_chain!(@v $l),)+))
    };
    (@base_runtime packed (($($l:tt),+ $(,)?))) => {
        $crate::Descriptor::packed(&[$($l),+])
    };

    // The kinds: type, typed call, runtime call. A scalar kind takes its
    // parameters one by one, a list kind one tuple, a pair kind a tuple of two.
    (@type pass_through ($($a:tt),+)) => { $crate::descriptor_chain!(@scalar_type PassThrough $($a)+) };
    (@typed pass_through ($($a:tt),+)) => { $crate::descriptor_chain!(@scalar_typed make_pass_through_transform $($a)+) };
    (@runtime pass_through ($($a:tt),+)) => { $crate::transforms::Transform::pass_through($($a),+) };
    (@type pad ($($a:tt),+)) => { $crate::descriptor_chain!(@scalar_type Pad $($a)+) };
    (@typed pad ($($a:tt),+)) => { $crate::descriptor_chain!(@scalar_typed make_pad_transform $($a)+) };
    (@runtime pad ($($a:tt),+)) => { $crate::transforms::Transform::pad($($a),+) };
    (@type left_pad ($($a:tt),+)) => { $crate::descriptor_chain!(@scalar_type LeftPad $($a)+) };
    (@typed left_pad ($($a:tt),+)) => { $crate::descriptor_chain!(@scalar_typed make_left_pad_transform $($a)+) };
    (@runtime left_pad ($($a:tt),+)) => { $crate::transforms::Transform::left_pad($($a),+) };
    (@type right_pad ($($a:tt),+)) => { $crate::descriptor_chain!(@scalar_type RightPad $($a)+) };
    (@typed right_pad ($($a:tt),+)) => { $crate::descriptor_chain!(@scalar_typed make_right_pad_transform $($a)+) };
    (@runtime right_pad ($($a:tt),+)) => { $crate::transforms::Transform::right_pad($($a),+) };
    (@type merge (($($a:tt),+ $(,)?))) => { $crate::descriptor_chain!(@list_type Merge $($a)+) };
    (@typed merge (($($a:tt),+ $(,)?))) => { $crate::descriptor_chain!(@list_typed make_merge_transform $($a)+) };
    (@runtime merge (($($a:tt),+ $(,)?))) => { $crate::transforms::Transform::merge(&[$($a),+]) };
    (@type unmerge (($($a:tt),+ $(,)?))) => { $crate::descriptor_chain!(@list_type Unmerge $($a)+) };
    (@typed unmerge (($($a:tt),+ $(,)?))) => { $crate::descriptor_chain!(@list_typed make_unmerge_transform $($a)+) };
    (@runtime unmerge (($($a:tt),+ $(,)?))) => { $crate::transforms::Transform::unmerge(&[$($a),+]) };
    (@type xor (($a:tt, $b:tt $(,)?))) => { $crate::descriptor_chain!(@scalar_type Xor $a $b) };
    (@typed xor (($a:tt, $b:tt $(,)?))) => { $crate::descriptor_chain!(@list_typed make_xor_transform $a $b) };
    (@runtime xor (($a:tt, $b:tt $(,)?))) => { $crate::transforms::Transform::xor($a, $b) };
    (@type embed (($($l:tt),+ $(,)?), ($($c:tt),+ $(,)?))) => {
        $crate::transforms::typed::Embed<
            ($($crate::descriptor_chain!(@t $l),)+),
            ($($crate::descriptor_chain!(@t $c),)+),
        >
    };
    (@typed embed (($($l:tt),+ $(,)?), ($($c:tt),+ $(,)?))) => {
        $crate::transforms::typed::make_embed_transform(
            ($($crate::descriptor_chain!(@v $l),)+),
            ($($crate::descriptor_chain!(@v $c),)+),
        )
    };
    (@runtime embed (($($l:tt),+ $(,)?), ($($c:tt),+ $(,)?))) => {
        $crate::transforms::Transform::embed(&[$($l),+], &[$($c),+])
    };
    (@scalar_type $ty:ident $($a:tt)+) => {
        $crate::transforms::typed::$ty<$($crate::descriptor_chain!(@t $a)),+>
    };
    (@scalar_typed $make:ident $($a:tt)+) => {
        $crate::transforms::typed::$make($($crate::descriptor_chain!(@v $a)),+)
    };
    (@list_type $ty:ident $($a:tt)+) => {
        $crate::transforms::typed::$ty<($($crate::descriptor_chain!(@t $a),)+)>
    };
    (@list_typed $make:ident $($a:tt)+) => {
        $crate::transforms::typed::$make(($($crate::descriptor_chain!(@v $a),)+))
    };

    // Every base and kind checked before anything is emitted, so that one
    // a chain does not spell is one error, naming it.
    (@known [naive (($($l:tt),+ $(,)?), ($($s:tt),+ $(,)?) $(, $vl:tt, $vs:tt)?)] $kinds:tt $input:tt) => {
        $crate::descriptor_chain!(@known [] $kinds $input);
    };
    (@known [packed (($($l:tt),+ $(,)?))] $kinds:tt $input:tt) => {
        $crate::descriptor_chain!(@known [] $kinds $input);
    };
    (@known [$base:ident $bargs:tt] $kinds:tt $input:tt) => {
        ::core::compile_error!(::core::concat!(
            "descriptor_chain!: `", ::core::stringify!($base), ::core::stringify!($bargs),
            "` is no base it spells; it spells naive((lengths), (strides)), naive((lengths), (strides), \
             vector_length, vector_stride) and packed((lengths))"
        ));
    };
    (@known [] [] {$($input:tt)*}) => { $crate::descriptor_chain!(@emit $($input)*); };
    (@known [] [pass_through ($a:tt) $($rest:tt)*] $input:tt) => { $crate::descriptor_chain!(@known [] [$($rest)*] $input); };
    (@known [] [pad ($a:tt, $b:tt, $c:tt) $($rest:tt)*] $input:tt) => { $crate::descriptor_chain!(@known [] [$($rest)*] $input); };
    (@known [] [left_pad ($a:tt, $b:tt) $($rest:tt)*] $input:tt) => { $crate::descriptor_chain!(@known [] [$($rest)*] $input); };
    (@known [] [right_pad ($a:tt, $b:tt) $($rest:tt)*] $input:tt) => { $crate::descriptor_chain!(@known [] [$($rest)*] $input); };
    (@known [] [merge (($($a:tt),+ $(,)?)) $($rest:tt)*] $input:tt) => { $crate::descriptor_chain!(@known [] [$($rest)*] $input); };
    (@known [] [unmerge (($($a:tt),+ $(,)?)) $($rest:tt)*] $input:tt) => { $crate::descriptor_chain!(@known [] [$($rest)*] $input); };
    (@known [] [xor (($a:tt, $b:tt $(,)?)) $($rest:tt)*] $input:tt) => { $crate::descriptor_chain!(@known [] [$($rest)*] $input); };
    (@known [] [embed (($($l:tt),+ $(,)?), ($($c:tt),+ $(,)?)) $($rest:tt)*] $input:tt) => {
        $crate::descriptor_chain!(@known [] [$($rest)*] $input);
    };
    (@known [] [$kind:ident $kargs:tt $($rest:tt)*] $input:tt) => {
        ::core::compile_error!(::core::concat!(
            "descriptor_chain!: `", ::core::stringify!($kind), ::core::stringify!($kargs),
            "` is no transform it spells; it spells pass_through(len), pad(len, left, right), left_pad(len, left), \
             right_pad(len, right), merge((lengths)), unmerge((lengths)), xor((l0, l1)) and embed((lengths), (coefficients))"
        ));
    };

    // What a user writes.
    (
        $(#[$tm:meta])* $tv:vis type $name:ident<$($p:ident),+ $(,)?>;
        $(#[$fm:meta])* $fv:vis fn $make:ident;
        $(#[$cm:meta])* $cv:vis const fn $runtime:ident;
        $base:ident $bargs:tt
        $(| transform($($kind:ident $kargs:tt on [$($lo:literal),* $(,)?] -> [$($up:literal),* $(,)?]),+ $(,)?))*
    ) => {
        $crate::descriptor_chain!(@known [$base $bargs] [$($($kind $kargs)+)*] {
            $(#[$tm])* $tv type $name<$($p),+>;
            $(#[$fm])* $fv fn $make;
            $(#[$cm])* $cv const fn $runtime;
            $base $bargs
            $(| transform($($kind $kargs on [$($lo),*] -> [$($up),*]),+))*
        });
    };
}

#[cfg(test)]
mod tests {
    //! Each chain's three items against each other: the typed builder on
    //! runtime values, on compile-time values and as a type, and the
    //! runtime builder, over every base and every kind the macro spells,
    //! on valid and invalid values alike.
    #![allow(clippy::unwrap_used)]

    use crate::Error;
    use crate::Number as N;
    use crate::descriptor::typed::TensorDescriptor;

    crate::descriptor_chain! {
        /// Pads and an xor over a naive base with a guaranteed vector.
        /// (`T` and `U` are the padded lengths, A + P + Q and B + P.)
        type Padded<A, B, S, P, Q, V, T, U>;
        fn make_padded;
        const fn padded;
        naive((A, B), (S, 1), V, 1)
        | transform(pad(A, P, Q) on [0] -> [0], right_pad(B, P) on [1] -> [1])
        | transform(left_pad(T, Q) on [0] -> [1], pass_through(U) on [1] -> [0])
    }

    crate::descriptor_chain! {
        /// A merge, an unmerge, an xor and an embed over a packed base.
        type Folded<A, B, C, X>;
        fn make_folded;
        const fn folded;
        packed((A, B, C))
        | transform(merge((A, B)) on [0, 1] -> [0], pass_through(C) on [2] -> [1])
        | transform(unmerge((B, A)) on [0] -> [0, 1], pass_through(C) on [1] -> [2])
        | transform(xor((B, X)) on [0, 2] -> [0, 2], pass_through(A) on [1] -> [1])
    }

    crate::descriptor_chain! {
        /// An embed and literals over a plain naive base.
        type Embedded<A, B, C>;
        fn make_embedded;
        const fn embedded;
        naive((A, 2), (2, 1))
        | transform(embed((B, C), (C, 1)) on [0] -> [0, 1], unmerge((2, 1)) on [1] -> [2, 3])
    }

    /// The typed builder's descriptor (or error) on runtime values.
    fn typed<C: crate::descriptor::typed::Chain>(
        d: Result<TensorDescriptor<C>, Error>,
    ) -> Result<crate::Descriptor, Error> {
        d.map(|d| d.descriptor())
    }

    /// Every combination of `ranges`, each as a `usize` array.
    fn grid<const K: usize>(ranges: [core::ops::Range<usize>; K]) -> impl Iterator<Item = [usize; K]> {
        let total: usize = ranges.iter().map(|r| r.len()).product();
        (0..total).map(move |mut i| {
            core::array::from_fn(|k| {
                let r = &ranges[k];
                let v = r.start + i % r.len();
                i /= r.len();
                v
            })
        })
    }

    /// Checks `agree` on every point of the grid and returns how many
    /// points built a descriptor, so a test can insist both answers occur.
    fn agreements<const K: usize>(
        ranges: [core::ops::Range<usize>; K],
        both: impl Fn([usize; K]) -> (Result<crate::Descriptor, Error>, Result<crate::Descriptor, Error>),
    ) -> (usize, usize) {
        let (mut built, mut refused) = (0, 0);
        for point in grid(ranges) {
            let (typed, runtime) = both(point);
            assert_eq!(typed, runtime, "at {point:?}");
            if runtime.is_ok() { built += 1 } else { refused += 1 }
        }
        (built, refused)
    }

    #[test]
    fn the_builders_agree_on_pads() {
        // `off` 0 gives the right padded lengths, 1 and 2 one too many.
        let (built, refused) = agreements([0..6, 0..6, 0..10, 0..3, 0..3, 0..5, 0..3], |[a, b, s, p, q, v, off]| {
            let (t, u) = (a + p + q + off / 2, b + p + off % 2);
            (typed(make_padded(a, b, s, p, q, v, t, u)), padded(a, b, s, p, q, v, t, u))
        });
        assert!(built > 1000 && refused > 1000, "{built} built, {refused} refused");
    }

    #[test]
    fn the_builders_agree_on_merges() {
        // `same` 1 makes the xor's modulus the dimension it reads.
        let (built, refused) = agreements([0..6, 0..6, 0..9, 0..9, 0..2], |[a, b, c, x, same]| {
            let x = if same == 1 { c } else { x };
            (typed(make_folded(a, b, c, x)), folded(a, b, c, x))
        });
        assert!(built > 50 && refused > 1000, "{built} built, {refused} refused");
    }

    #[test]
    fn the_builders_agree_on_embeds() {
        let (built, refused) =
            agreements([0..40, 0..9, 0..9], |[a, b, c]| (typed(make_embedded(a, b, c)), embedded(a, b, c)));
        assert!(built > 100 && refused > 100, "{built} built, {refused} refused");
    }

    /// With compile-time values the typed builder's type is the chain's
    /// type, whose compile-time descriptor is the runtime builder's.
    #[test]
    fn compile_time_values_give_the_same_descriptor() {
        type Static = Padded<N<6>, N<8>, N<12>, N<2>, N<1>, N<4>, N<9>, N<10>>;
        let d: TensorDescriptor<Static> =
            make_padded(N::<6>, N::<8>, N::<12>, N::<2>, N::<1>, N::<4>, N::<9>, N::<10>).unwrap();
        let runtime = padded(6, 8, 12, 2, 1, 4, 9, 10).unwrap();
        assert_eq!(core::mem::size_of_val(&d), 0);
        assert_eq!(TensorDescriptor::<Static>::DESCRIPTOR, &runtime);
        assert_eq!(d.descriptor(), runtime);
        // A mix: the row stride at run time.
        assert_eq!(typed(make_padded(N::<6>, N::<8>, 12usize, N::<2>, N::<1>, N::<4>, N::<9>, N::<10>)), Ok(runtime));
        // The spec the chain prints: the base, then one line a stage.
        assert_eq!(
            folded(2, 3, 4, 4).unwrap().to_string(),
            "packed((2,3,4))\n| transform(merge((2,3)) on [0,1] -> [0], pass_through(4) on [2] -> [1])\n\
             | transform(unmerge((3,2)) on [0] -> [0,1], pass_through(4) on [1] -> [2])\n\
             | transform(xor((3,4)) on [0,2] -> [0,2], pass_through(2) on [1] -> [1])"
        );
    }
}
